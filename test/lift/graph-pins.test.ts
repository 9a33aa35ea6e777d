import assert from 'node:assert/strict';
import { currentPins, pinnedGraphs } from '../pins/graph-pins.js';

describe('lift: the graph of every capture is pinned', () => {
  it('lifts each capture of the corpus to exactly the pinned quads (else re-pin, saying why: see test/pins/graph-pins.ts)', () => {
    assert.deepEqual(currentPins(), pinnedGraphs());
  });
});
