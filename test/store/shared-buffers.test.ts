// The embedded store's batch buffers: reused when given back, of the exact size asked when none will come back.
import assert from 'node:assert/strict';
import { SharedBuffers } from '../../src/store/shared-buffers.js';

const kib = 1024;

describe('SharedBuffers', () => {
  it('gives a batch buffer back for the next batch of about its size, in shared memory', () => {
    const buffers = new SharedBuffers();
    const first = buffers.take(300 * kib);
    assert.ok(first.buffer instanceof SharedArrayBuffer);
    assert.equal(first.length, 300 * kib);
    buffers.give(first);
    const second = buffers.take(310 * kib);
    assert.equal(second.buffer, first.buffer, 'the buffer given back is taken again');
    assert.equal(second.length, 310 * kib);
  });

  it('allocates exactly the bytes asked when it keeps none (a journal in memory keeps every batch)', () => {
    const buffers = new SharedBuffers(0);
    const batch = buffers.take(300 * kib);
    assert.equal(batch.buffer.byteLength, 300 * kib);
    buffers.give(batch);
    assert.notEqual(buffers.take(300 * kib).buffer, batch.buffer, 'nothing is kept');
  });

  it('copies bytes and encodes text into shared memory', () => {
    const buffers = new SharedBuffers();
    assert.deepEqual([...buffers.copy(new Uint8Array([1, 2, 3]))], [1, 2, 3]);
    assert.equal(Buffer.from(buffers.utf8('é\n')).toString('utf8'), 'é\n');
  });
});
