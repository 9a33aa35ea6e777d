import type { JsonObject } from '../../src/core/json.js';
import type { CaptureRecord, InputRecord } from '../../src/lift/records.js';
import assert from 'node:assert/strict';
import { Parser } from 'n3';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { Lowerer } from '../../src/lower/lower.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import path from 'node:path';
import { captureFiles, captureRecords, ogcExamples, trafficRecords } from '../helpers/corpus.js';

const schema = loadSchema();

describe('lower: RDF back to MCP messages', () => {
  for (const file of captureFiles()) {
    it(`reproduces every message of ${path.basename(file)} deep-equal, in order, with direction, timestamp, session and server`, () => {
      const records = trafficRecords(file);
      const lifter = new Lifter(schema);
      const quads = records.flatMap((record) => lifter.lift(record).quads);
      const lowered = new Lowerer(lifter.plans).lower(quads);
      assert.equal(lowered.length, records.length);
      lowered.forEach((record, i) => assert.deepStrictEqual(record, records[i], `record ${i + 1}`));
    });
  }

  it('gives back the HTTP facts a proxy recorded (Mcp-Method, Mcp-Name headers), on a message and on a raw line, from mld: data', () => {
    const records: InputRecord[] = [
      {
        seq: 1,
        ts: '2026-07-28T10:00:00.000Z',
        dir: 'c2s',
        session: 'http',
        http: { mcpMethod: 'tools/call', mcpName: 'echo' },
        msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } },
      },
      {
        seq: 2,
        ts: '2026-07-28T10:00:00.010Z',
        dir: 's2c',
        session: 'http',
        msg: { jsonrpc: '2.0', id: 1, result: { content: [] } },
      },
      {
        seq: 3,
        ts: '2026-07-28T10:00:00.020Z',
        dir: 'c2s',
        session: 'http',
        http: { mcpMethod: 'resources/read', mcpName: '=?base64?bm90ZXM6Ly/DqQ==?=' },
        raw: '{"jsonrpc":"2.0","id":2,"id":3}',
      },
    ];
    const lifter = new Lifter(schema);
    const quads = records.flatMap((record) => lifter.lift(record).quads);
    const headers = quads
      .filter((q) => q.predicate.value.startsWith('https://w3id.org/mcp-ld/ns#mcp'))
      .map((q) => `${q.predicate.value.split('#')[1]} ${q.object.value}`);
    assert.deepEqual(headers, [
      'mcpMethodHeader tools/call',
      'mcpNameHeader echo',
      'mcpMethodHeader resources/read',
      'mcpNameHeader =?base64?bm90ZXM6Ly/DqQ==?=',
    ]);
    const lowered = new Lowerer(lifter.plans).lower(new Parser({ format: 'N-Quads' }).parse(writeNQuads(quads)));
    assert.deepStrictEqual(lowered, records);
  });

  it('reproduces every OGC example deep-equal', () => {
    for (const { name, msg } of ogcExamples()) {
      const lifter = new Lifter(schema, { defaultSession: name });
      const [lowered] = new Lowerer(lifter.plans).lower(lifter.lift({ msg }).quads);
      assert.deepStrictEqual((lowered as CaptureRecord).msg, msg, name);
    }
  });

  it('reproduces the original after a trip through N-Quads text, whatever the order of the quads', () => {
    const records = trafficRecords().slice(0, 60);
    const lifter = new Lifter(schema);
    const text = writeNQuads(records.flatMap((record) => lifter.lift(record).quads));
    const shuffled = text.trim().split('\n').reverse().join('\n');
    const lowered = new Lowerer(lifter.plans).lower(new Parser({ format: 'N-Quads' }).parse(shuffled));
    assert.deepStrictEqual(lowered, records);
  });

  it('gives back a string id with a lone surrogate (valid JSON), on a request and on the response that answers it', () => {
    const lifter = new Lifter(schema, { defaultSession: 'lone-id' });
    const messages: JsonObject[] = [
      { jsonrpc: '2.0', id: '\udbff', method: 'tools/call', params: { name: 'echo', arguments: {} } },
      { jsonrpc: '2.0', id: '\udbff', result: { content: [] } },
      { jsonrpc: '2.0', id: 'x\udc00y', method: 'ping' },
    ];
    const quads = messages.flatMap((msg) => lifter.lift({ msg }).quads);
    const lowered = new Lowerer(lifter.plans)
      .lower(new Parser({ format: 'N-Quads' }).parse(writeNQuads(quads)))
      .map((r) => (r as CaptureRecord).msg);
    assert.deepStrictEqual(lowered, messages);
  });

  it('keeps what the schema does not expect: nulls, empty objects and arrays, nested arrays, odd keys, wrong types', () => {
    const odd = {
      jsonrpc: '2.0',
      id: 'x-1',
      method: 'tools/call',
      params: {
        name: 'weird',
        arguments: { nothing: null },
        'key with spaces/and~tilde': { '': [[], [[1, 2.5, -0.125, 1e300]], {}] },
        _meta: { progressToken: 'p' },
        title: null,
      },
      extra: true,
    };
    const wrongTypes = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: { nested: 1 }, progress: '50%', total: [1] },
    };
    const lifter = new Lifter(schema, { defaultSession: 'odd' });
    const quads = [odd, wrongTypes].flatMap((msg) => lifter.lift({ msg }).quads);
    const lowered = new Lowerer(lifter.plans).lower(quads).map((r) => (r as CaptureRecord).msg);
    assert.deepStrictEqual(lowered, [odd, wrongTypes]);
  });

  it('gives back timestamps in their original text even when it is not the ISO form', () => {
    const lifter = new Lifter(schema);
    const record = {
      ts: '2026-11-29T23:56:04+01:00',
      session: 's',
      dir: 'c2s' as const,
      msg: { jsonrpc: '2.0', method: 'notifications/initialized' },
    };
    const [lowered] = new Lowerer(lifter.plans).lower(lifter.lift(record).quads);
    assert.equal(lowered!.ts, record.ts);
  });

  it('gives back a capture whole: lines that were not JSON, and the wire text kept beside a message', () => {
    const records: InputRecord[] = captureRecords('traffic-sdk1.0.4-memory-0.6.2.jsonl').map((record) => ({
      ...record,
      seq: record.seq! + 1,
    }));
    const first = records[0] as CaptureRecord;
    records.unshift({
      seq: 1,
      ts: first.ts!,
      dir: 's2c',
      server: first.server!,
      session: first.session!,
      raw: 'Knowledge Graph MCP Server running on stdio',
    });
    records.push({
      ...(records[5] as CaptureRecord),
      seq: 999,
      raw: JSON.stringify((records[5] as CaptureRecord).msg, null, 1),
    });
    // A line whose bytes are not UTF-8 (no text holds them): their base64.
    records.push({
      seq: 1000,
      dir: 's2c',
      server: first.server!,
      session: first.session!,
      raw: Buffer.of(0x7b, 0xff, 0xc3, 0x28).toString('base64'),
      encoding: 'base64',
    });
    const lifter = new Lifter(schema);
    const lifted = records.map((record) => lifter.lift(record));
    assert.equal(lifted.filter((m) => m.rawLine).length, 2);
    assert.ok(
      lifted
        .at(-1)!
        .quads.some(
          (q) =>
            q.predicate.value === 'https://w3id.org/mcp-ld/ns#rawBytes' &&
            q.object.termType === 'Literal' &&
            q.object.datatype.value === 'http://www.w3.org/2001/XMLSchema#base64Binary',
        ),
    );
    const lowered = new Lowerer(lifter.plans).lower(lifted.flatMap((m) => m.quads));
    assert.deepStrictEqual(lowered, records);
  });

  it('keeps an envelope key a message of its shape does not use (an error beside a result, a result on a request)', () => {
    const lifter = new Lifter(schema, { defaultSession: 'both' });
    const messages: JsonObject[] = [
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
      { jsonrpc: '2.0', id: 2, method: 'ping', result: 5 },
      { jsonrpc: '2.0', id: 3, error: { code: 2, message: 'y' }, result: null, params: [1] },
    ];
    const lowered = new Lowerer(lifter.plans)
      .lower(messages.flatMap((msg) => lifter.lift({ msg }).quads))
      .map((r) => (r as CaptureRecord).msg);
    assert.deepStrictEqual(lowered, messages);
  });

  it('gives back a "__proto__" key, at the top of a message and below, as JSON.parse read it', () => {
    const lifter = new Lifter(schema, { defaultSession: 'proto' });
    const messages = ['{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"x":1},"y":2},"__proto__":[3]}'].map(
      (text) => JSON.parse(text) as JsonObject,
    );
    const lowered = new Lowerer(lifter.plans)
      .lower(messages.flatMap((msg) => lifter.lift({ msg }).quads))
      .map((r) => (r as CaptureRecord).msg);
    assert.deepStrictEqual(lowered, messages);
    assert.ok(Object.hasOwn(lowered[0]!, '__proto__') && Object.hasOwn(lowered[0]!['result'] as object, '__proto__'));
  });

  it('lowers a message whose object has 40,000 keys in linear time, duplicate quads dropped once each', () => {
    // Quadratic before: every value of a predicate was compared with every other (20 s for this message over HTTP).
    const args: JsonObject = {};
    for (let i = 0; i < 40_000; i++) args[`k${i}`] = `v${i}`;
    const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wide', arguments: args } };
    const lifter = new Lifter(schema, { defaultSession: 'k40' });
    const quads = lifter.lift({ msg }).quads;
    const lowerer = new Lowerer(lifter.plans);
    const started = performance.now();
    const [lowered] = lowerer.lower([...quads, ...quads]);
    const ms = performance.now() - started;
    assert.deepStrictEqual((lowered as CaptureRecord).msg, msg);
    assert.ok(ms < 4000, `lowering 40,000 keys took ${Math.round(ms)} ms`);
  });
});
