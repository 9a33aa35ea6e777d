// "Two engines, one behaviour": the fast engine (compiled from the schema) and the reference engine (jsonld.js
// with the generated per-message contexts) give the same graph for every message of every corpus fixture.
// Neither uses blank nodes, so isomorphism is equality of the quad sets.
import assert from 'node:assert/strict';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { ReferenceEngine } from '../../src/lift/reference.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import type { InputRecord } from '../../src/lift/records.js';
import { captureRecords, captures, ogcExamples } from '../helpers/corpus.js';

const schema = loadSchema();

async function compare(records: InputRecord[], label: string): Promise<void> {
  const fast = new Lifter(schema);
  const reference = new ReferenceEngine(new Lifter(schema));
  const differences: string[] = [];
  for (const [i, record] of records.entries()) {
    const a = new Set(writeNQuads(fast.lift(record).quads).trim().split('\n'));
    const b = new Set(
      writeNQuads((await reference.lift(record)).quads)
        .trim()
        .split('\n'),
    );
    const onlyFast = [...a].filter((line) => !b.has(line));
    const onlyReference = [...b].filter((line) => !a.has(line));
    if (onlyFast.length + onlyReference.length > 0) {
      differences.push(
        `${label} ${i + 1} (${'msg' in record ? String(record.msg['method'] ?? 'response') : 'raw line'}):\n  only fast:      ${onlyFast.slice(0, 3).join('\n                  ')}\n  only reference: ${onlyReference.slice(0, 3).join('\n                  ')}`,
      );
    }
  }
  assert.equal(
    differences.length,
    0,
    `${differences.length} of ${records.length} messages differ:\n${differences.slice(0, 5).join('\n')}`,
  );
}

describe('lift: the fast and the reference engine', () => {
  for (const { file, version } of captures) {
    it(`give the same quads for every message of ${file} (${version}), by that version's contexts`, async () => {
      await compare(captureRecords(file), file);
    });
  }

  it('give the same quads for a line that was not JSON', async () => {
    await compare([{ seq: 1, dir: 's2c', session: 'raw', raw: 'Server listening on stdio' }], 'raw line');
  });

  it('give the same quads for every OGC example', async () => {
    await compare(
      ogcExamples().map(({ name, msg }) => ({ session: name, msg })),
      'example',
    );
  });

  it('give the same quads for values the schema does not expect (nulls, wrong types, unknown keys, nested lists)', async () => {
    const odd: InputRecord[] = [
      {
        msg: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'x', arguments: { a: null }, extra: [[1, [2.5]], {}], title: null },
        },
      },
      {
        msg: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 3, progress: 0.5, total: 2.5, message: 7 },
        },
      },
      {
        msg: {
          jsonrpc: '2.0',
          id: 1,
          result: {
            content: [{ type: 'text', text: 'hi', annotations: { priority: 0.25, audience: ['user'] } }],
            isError: 'no',
          },
        },
      },
      { msg: { jsonrpc: '2.0', id: 'q', method: 'brand/new', params: { deep: { deeper: [true, null, 'x'] } } } },
      { msg: { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'boom', data: [1, 2] } } },
      // Envelope keys a message of its shape does not use: kept as data.
      { msg: { jsonrpc: '2.0', id: 9, result: {}, error: { code: 1, message: 'both' } } },
      { msg: { jsonrpc: '2.0', id: 10, method: 'ping', result: 5 } },
      { msg: { jsonrpc: '2.0', id: 11, error: { code: 2, message: 'x' }, method: 'ping', params: {} } },
      // Schemas and structured content, also lifted as data: type arrays, nested properties, items, odd defaults.
      {
        msg: {
          jsonrpc: '2.0',
          id: 3,
          result: {
            tools: [
              {
                name: 't',
                inputSchema: {
                  type: 'object',
                  properties: {
                    a: { type: ['string', 'null'], enum: [null, 'x', 2], default: { k: [] } },
                    b: {
                      type: 'object',
                      properties: { c: { type: 'array', items: { type: 'integer', minimum: 0 } } },
                      required: ['c', 'zz'],
                    },
                    bad: 3,
                  },
                  required: ['a'],
                },
                outputSchema: { type: 'object' },
              },
            ],
          },
        },
      },
      {
        msg: {
          jsonrpc: '2.0',
          id: 4,
          result: { content: [], structuredContent: { a: [[1], {}, { b: null }], 'odd key/~': true } },
        },
      },
    ];
    await compare(odd, 'odd message');
  });
});
