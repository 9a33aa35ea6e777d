// Fuzz: the core converter in process — parseInput, the lifter, N-Quads and lowering — on generated inputs (see
// inputs.ts). The fuzz suite mirrors no single file of src: each of its files drives one adapter or the core whole.
// Invariants: nothing but McpLdError (4xx) for what is refused, and refused exactly what must be; what is accepted
// gives N-Quads that parse back, and lowering gives back what JSON.parse read, or the lifter refuses it by name.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Parser, type Quad } from 'n3';
import { isJsonObject, type JsonValue } from '../../src/core/json.js';
import { McpLdError } from '../../src/core/problem.js';
import { parseInput } from '../../src/lift/input.js';
import { Lifter } from '../../src/lift/lifter.js';
import { isCaptureRecord, isRawLine, type InputRecord } from '../../src/lift/records.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { Lowerer } from '../../src/lower/lower.js';
import { checkNQuads } from '../../src/store/nquads-check.js';
import { loadSchema, seedVersion, type ProtocolVersion, type SchemaIndex } from '../../src/schema/index.js';
import { liftedText } from '../helpers/lifted-text.js';
import { expectation, fuzzInput, type FuzzInput } from './inputs.js';
import { canonical } from './json-equal.js';
import { check, Tally } from './settings.js';

const schemas = new Map<ProtocolVersion, SchemaIndex>();
function schemaFor(version: ProtocolVersion = seedVersion): SchemaIndex {
  let schema = schemas.get(version);
  if (!schema) schemas.set(version, (schema = loadSchema({ protocol: version })));
  return schema;
}

/** What a record stands for, to compare: its message, or its raw line. */
function contentOf(record: InputRecord): string {
  return isRawLine(record) ? `raw:${record.encoding ?? 'text'}:${record.raw}` : canonical(record.msg);
}

/** The message a parsed JSON value holds: the value itself, or the `msg` of a capture record. */
function messageIn(value: JsonValue | undefined): JsonValue | undefined {
  return isJsonObject(value) && isCaptureRecord(value) ? value['msg'] : value;
}

function convertChecked(input: FuzzInput, outcomes?: Tally): void {
  const expected = expectation(input, 'whole');
  const items = [...parseInput(input.bytes)];
  assert.ok(items.length > 0, 'every input gives at least one item');
  for (const item of items) {
    outcomes?.add(item.error ? item.error.code : 'lifted');
    if (!item.error) continue;
    assert.ok(item.error instanceof McpLdError, `an McpLdError, not ${String(item.error)}`);
    assert.ok(item.error.status >= 400 && item.error.status < 500, `a 4xx: ${item.error.status}`);
  }
  if (expected.refused) {
    assert.ok(
      items.every((item) => item.error),
      `refused (one of ${expected.refused.join(', ')}), but accepted`,
    );
    const codes = items.map((item) => item.error!.code);
    assert.ok(
      codes.some((code) => expected.refused!.includes(code)),
      `refused with one of ${expected.refused.join(', ')}, not ${codes.join(', ')}`,
    );
    return;
  }
  const lifter = new Lifter(schemaFor(input.version), { defaultSession: 'fuzz' });
  // What each message IRI stands for. Records that name the same message (session and seq) are one message; two
  // different ones that do are lifted onto one IRI and merge: a limitation of IRIs minted from seq, not compared here.
  const byIri = new Map<string, string>();
  let collided = false;
  const quads: Quad[] = [];
  for (const item of items) {
    if (!item.record) continue;
    // The record holds what JSON.parse read, nothing changed.
    if (!isRawLine(item.record)) {
      const wanted = messageIn(item.index !== undefined ? (expected.value as JsonValue[])[item.index] : expected.value);
      assert.equal(
        canonical(item.record.msg),
        canonical(wanted!),
        'the record holds the message as JSON.parse read it',
      );
    }
    try {
      const lifted = lifter.lift(item.record);
      const content = contentOf(item.record);
      const earlier = byIri.get(lifted.iri);
      if (earlier === undefined) byIri.set(lifted.iri, content);
      else if (earlier !== content) collided = true;
      // not push(...): a big message has more quads than the stack has room for arguments
      for (const quad of lifted.quads) quads.push(quad);
    } catch (error) {
      if (!(error instanceof McpLdError)) throw error;
      outcomes?.add(`lifter refused: ${error.code}`);
    }
  }
  liftedTextChecks(input, items);
  const text = writeNQuads(quads);
  const parsed = new Parser({ format: 'N-Quads' }).parse(text);
  assert.equal(parsed.length, quads.length, 'the N-Quads parse back, quad for quad');
  if (collided) return void outcomes?.add('two messages on one IRI: not compared');
  const lowered = new Lowerer(lifter.plans).lower(parsed);
  assert.deepEqual(
    lowered.map(contentOf).sort(),
    [...byIri.values()].sort(),
    'lowering gives back every message exactly',
  );
}

/**
 * The N-Quads text the lifter writes (liftToNQuads, what `mcp-ld ingest` stores) passes the store's check, with the
 * statements and graphs the lifter counted: an embedded store takes those counts instead of checking the text again
 * (IngestOptions.lifted).
 */
function liftedTextChecks(input: FuzzInput, items: { record?: InputRecord }[]): void {
  const records = items.flatMap(({ record }) => (record ? [record] : []));
  const { text, quads, graphs } = liftedText(
    new Lifter(schemaFor(input.version), { defaultSession: 'fuzz' }),
    records,
    true,
  );
  assert.deepEqual(checkNQuads(text), { quads, graphs }, 'the store would check what the lifter counted');
}

describe('fuzz: the converter in process', function () {
  this.timeout(600_000);

  it('refuses by name what it must, and gives back exactly what it accepts (one message, pretty-printed, a batch)', async () => {
    const outcomes = new Tally();
    await check(
      'converter',
      fc.property(fuzzInput(['line', 'pretty', 'batch']), (input) => convertChecked(input, outcomes)),
      1000,
      outcomes,
    );
  });
});
