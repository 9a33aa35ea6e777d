// The N-Quads text a lifter writes for some records (liftToNQuads, what `mcp-ld ingest` stores), with the statements
// and graphs it counted: what an embedded store takes instead of checking the text (IngestOptions.lifted).
import { McpLdError } from '../../src/core/problem.js';
import type { Lifter } from '../../src/lift/lifter.js';
import type { InputRecord } from '../../src/lift/records.js';

interface LiftedText {
  text: string;
  quads: number;
  /** The graphs of the messages that gave quads, in order of first appearance (as the store's check lists them). */
  graphs: string[];
}

/**
 * Lifts `records` in order. A record the lifter refuses by name (McpLdError) fails the call, or with `skipRefused`
 * gives nothing.
 */
export function liftedText(lifter: Lifter, records: Iterable<InputRecord>, skipRefused = false): LiftedText {
  const lifted: LiftedText = { text: '', quads: 0, graphs: [] };
  for (const record of records) {
    try {
      const message = lifter.liftToNQuads(record);
      lifted.text += message.nquads;
      lifted.quads += message.quadCount;
      if (message.quadCount > 0 && !lifted.graphs.includes(message.graph)) lifted.graphs.push(message.graph);
    } catch (error) {
      if (!skipRefused || !(error instanceof McpLdError)) throw error;
    }
  }
  return lifted;
}
