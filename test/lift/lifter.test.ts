import assert from 'node:assert/strict';
import type { Quad } from 'n3';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { jrpc, mld, ns, rdf, xsd } from '../../src/rdf/vocabulary.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { ogcExamples, trafficRecords } from '../helpers/corpus.js';

const schema = loadSchema();
const mcp = (local: string) => ns.mcp + local;

function liftAll(records: CaptureRecord[], options = {}): Quad[] {
  const lifter = new Lifter(schema, options);
  return records.flatMap((record) => lifter.lift(record).quads);
}

function objects(quads: Quad[], subject: string, predicate: string): string[] {
  return quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);
}

function literalOf(quads: Quad[], subject: string, predicate: string): { value: string; datatype: string } {
  const found = quads.find((q) => q.subject.value === subject && q.predicate.value === predicate);
  assert.ok(found, `no ${predicate} on ${subject}`);
  assert.equal(found.object.termType, 'Literal');
  return { value: found.object.value, datatype: (found.object as { datatype: { value: string } }).datatype.value };
}

/** Lifts `msg` as sent in direction `dir` in session `s` (at `ts`, when given). */
function liftIn(lifter: Lifter, dir: 'c2s' | 's2c', msg: JsonObject, ts?: string) {
  return lifter.lift({ session: 's', dir, msg, ...(ts === undefined ? {} : { ts }) });
}

/** A call of the tool `add` with `args`, lifted alone in session `s`. */
function liftToolCall(args: JsonObject) {
  return new Lifter(schema).lift({
    session: 's',
    msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: args } },
  });
}

describe('lift: fast engine', () => {
  const records = trafficRecords();
  const quads = liftAll(records);
  const session = 'urn:mcp-ld:session/57cd8539-bf6a-4833-ae14-361ffa3a23c9';
  const message = (n: number) => `${session}/message/${n}`;

  it('gives every corpus message a JSON-RPC class and an MCP class (or mld:UnknownMessage for unknown methods)', () => {
    const jsonRpcClasses = new Set<string>([jrpc.Request, jrpc.Notification, jrpc.Response, jrpc.ErrorResponse]);
    records.forEach((record, i) => {
      const types = objects(quads, message(i + 1), rdf.type);
      assert.equal(
        types.filter((t) => jsonRpcClasses.has(t)).length,
        1,
        `message ${i + 1} has one JSON-RPC class: ${types}`,
      );
      const method = typeof record.msg['method'] === 'string' ? record.msg['method'] : undefined;
      // The capture speaks 2025-11-25, and is lifted by that version's schema.
      if (method && !loadSchema({ protocol: '2025-11-25' }).messageForMethod(method))
        assert.ok(types.includes(mld.UnknownMessage), `message ${i + 1} (${method})`);
      else if (!('error' in record.msg))
        assert.ok(
          types.some((t) => t.startsWith(ns.mcp)),
          `message ${i + 1} has an MCP class: ${types}`,
        );
    });
  });

  it('types requests by method and results by the request they answer', () => {
    const first = (method: string) => records.findIndex((r) => r.msg['method'] === method) + 1;
    assert.ok(objects(quads, message(first('tools/call')), rdf.type).includes(mcp('CallToolRequest')));
    const listTools = records.findIndex((r) => r.msg['method'] === 'tools/list');
    const answer =
      records.findIndex((r, i) => i > listTools && r.msg['id'] === records[listTools]!.msg['id'] && 'result' in r.msg) +
      1;
    assert.ok(objects(quads, message(answer), rdf.type).includes(mcp('ListToolsResult')));
    assert.deepEqual(objects(quads, message(answer), mld.respondsTo), [message(listTools + 1)]);
  });

  it('puts every quad of a session in its named graph, with direction, order and timestamp on each message', () => {
    assert.ok(quads.every((q) => q.graph.value === session));
    const firstMessage = message(1);
    assert.deepEqual(objects(quads, firstMessage, mld.direction), [mld.clientToServer]);
    assert.deepEqual(objects(quads, message(2), mld.direction), [mld.serverToClient]);
    assert.equal(literalOf(quads, firstMessage, mld.order).value, '1');
    const ts = literalOf(quads, firstMessage, mld.timestamp);
    assert.equal(ts.value, records[0]!.ts);
    assert.equal(ts.datatype, xsd.dateTime);
    assert.deepEqual(objects(quads, firstMessage, mld.inSession), [session]);
  });

  it('describes the session with client, server, protocol version and capabilities from initialize', () => {
    assert.ok(objects(quads, session, rdf.type).includes(mld.Session));
    assert.deepEqual(objects(quads, session, mld.client), ['urn:mcp-ld:implementation/mcpcap-driver/0.1.0']);
    assert.deepEqual(objects(quads, session, mld.serverImplementation), [
      'urn:mcp-ld:implementation/mcp-servers%2Feverything/2.0.0',
    ]);
    assert.equal(literalOf(quads, session, mld.protocolVersion).value, '2025-11-25');
    assert.deepEqual(objects(quads, session, mld.clientCapabilities), [`${message(1)}/params/capabilities`]);
    assert.deepEqual(objects(quads, session, mld.serverCapabilities), [`${message(2)}/result/capabilities`]);
    assert.deepEqual(objects(quads, session, mld.server), ['urn:mcp-ld:server/everything']);
  });

  it('makes request ids nodes that never collide across sessions, directions or JSON types', () => {
    const lifter = new Lifter(schema);
    const ids = [
      lifter.lift({ session: 'a', dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
      lifter.lift({ session: 'a', dir: 'c2s', msg: { jsonrpc: '2.0', id: '1', method: 'ping' } }),
      lifter.lift({ session: 'a', dir: 's2c', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
      lifter.lift({ session: 'b', dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
    ].map((lifted) => objects(lifted.quads, lifted.iri, jrpc.hasId)[0]);
    assert.equal(new Set(ids).size, 4, ids.join(' '));
    const numberId = lifter.lift({ session: 'c', msg: { jsonrpc: '2.0', id: 7, method: 'ping' } });
    const idNode = objects(numberId.quads, numberId.iri, jrpc.hasId)[0]!;
    assert.deepEqual(objects(numberId.quads, idNode, rdf.type), [jrpc.NumberId]);
    assert.deepEqual(literalOf(numberId.quads, idNode, jrpc.hasNumberValue), { value: '7', datatype: xsd.integer });
    const stringId = lifter.lift({ session: 'c', msg: { jsonrpc: '2.0', id: 'seven', method: 'ping' } });
    const stringNode = objects(stringId.quads, stringId.iri, jrpc.hasId)[0]!;
    assert.deepEqual(objects(stringId.quads, stringNode, rdf.type), [jrpc.StringId]);
    assert.equal(literalOf(stringId.quads, stringNode, jrpc.hasStringValue).value, 'seven');
  });

  it('shares the id node between a request and its response, and links the response to the request', () => {
    const lifter = new Lifter(schema);
    const request = lifter.lift({ session: 's', dir: 'c2s', msg: { jsonrpc: '2.0', id: 3, method: 'tools/list' } });
    const response = lifter.lift({ session: 's', dir: 's2c', msg: { jsonrpc: '2.0', id: 3, result: { tools: [] } } });
    assert.deepEqual(
      objects(response.quads, response.iri, jrpc.hasId),
      objects(request.quads, request.iri, jrpc.hasId),
    );
    assert.deepEqual(objects(response.quads, response.iri, mld.respondsTo), [request.iri]);
    assert.deepEqual(literalOf(response.quads, response.iri, mld.answersMethod), {
      value: 'tools/list',
      datatype: xsd.string,
    });
  });

  it('gives a response its latency, and links cancellations and progress to the request they are about', () => {
    const lifter = new Lifter(schema);
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const liftAt = (dir: 'c2s' | 's2c', ms: number, msg: JsonObject) => liftIn(lifter, dir, msg, at(ms));
    const call = (id: number, progressToken: JsonValue): JsonObject => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: {}, _meta: { progressToken } },
    });
    const progressOn = (progressToken: JsonValue, progress: number): JsonObject => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken, progress },
    });
    const cancelOf = (requestId: number): JsonObject => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId },
    });
    const request = liftAt('c2s', 0, call(7, 8));
    const other = liftAt('c2s', 5, call(8, '8'));
    const progress = liftAt('s2c', 250, progressOn(8, 1));
    const stringProgress = liftAt('s2c', 260, progressOn('8', 1));
    const cancel = liftAt('c2s', 300, cancelOf(7));
    const response = liftAt('s2c', 1500, { jsonrpc: '2.0', id: 7, result: { content: [] } });
    // Once answered, a request takes no more progress or cancellation; a token of another JSON type is another token.
    const late = liftAt('s2c', 1600, progressOn(8, 2));
    const lateCancel = liftAt('c2s', 1700, cancelOf(7));
    assert.deepEqual(objects(progress.quads, progress.iri, mld.progressOf), [request.iri]);
    assert.deepEqual(objects(stringProgress.quads, stringProgress.iri, mld.progressOf), [other.iri]);
    assert.deepEqual(objects(cancel.quads, cancel.iri, mld.cancels), [request.iri]);
    assert.deepEqual(literalOf(response.quads, response.iri, mld.latencyMs), { value: '1500', datatype: xsd.decimal });
    assert.deepEqual(objects(late.quads, late.iri, mld.progressOf), []);
    assert.deepEqual(objects(lateCancel.quads, lateCancel.iri, mld.cancels), []);
    // Without capture times there is no latency.
    const plain = new Lifter(schema);
    plain.lift({ session: 'p', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    const pong = plain.lift({ session: 'p', msg: { jsonrpc: '2.0', id: 1, result: {} } });
    assert.deepEqual(objects(pong.quads, pong.iri, mld.latencyMs), []);
  });

  it('links the real capture as its JSON says: every answered request timed, every progress notification to its request', () => {
    const byId = new Map<string, CaptureRecord>();
    const tokens = new Map<string, number>();
    let timed = 0;
    let reported = 0;
    let cancelled = 0;
    for (const record of records) {
      const msg = record.msg as Record<string, any>;
      const key = (dir: string, id: unknown) => `${record.session} ${dir} ${typeof id} ${String(id)}`;
      if (msg['method'] !== undefined && msg['id'] !== undefined) {
        byId.set(key(record.dir!, msg['id']), record);
        const token = msg['params']?._meta?.progressToken;
        if (token !== undefined) tokens.set(key(record.dir!, token), record.seq!);
      } else if (msg['method'] === undefined) {
        const requestDir = record.dir === 'c2s' ? 's2c' : 'c2s';
        const request = byId.get(key(requestDir, msg['id']));
        if (request) {
          timed += 1;
          byId.delete(key(requestDir, msg['id']));
          const token = (request.msg as Record<string, any>)['params']?._meta?.progressToken;
          if (token !== undefined) tokens.delete(key(requestDir, token));
        }
      } else if (
        msg['method'] === 'notifications/progress' &&
        tokens.has(key(record.dir === 'c2s' ? 's2c' : 'c2s', msg['params'].progressToken))
      ) {
        reported += 1;
      } else if (msg['method'] === 'notifications/cancelled' && byId.has(key(record.dir!, msg['params'].requestId))) {
        cancelled += 1;
      }
    }
    const count = (predicate: string) => quads.filter((q) => q.predicate.value === predicate).length;
    assert.ok(
      timed > 50 && reported > 0 && cancelled > 0,
      `the capture has answers (${timed}), progress (${reported}) and a cancellation (${cancelled})`,
    );
    assert.equal(count(mld.latencyMs), timed);
    assert.equal(count(mld.progressOf), reported);
    assert.equal(count(mld.cancels), cancelled);
  });

  it('lifts the tools of tools/list as mcp:Tool nodes linked to per-server tool entities that tools/call links to', () => {
    const listing = records.findIndex((r) => Array.isArray((r.msg['result'] as { tools?: unknown })?.tools)) + 1;
    const first = `${message(listing)}/result/tools/0`;
    assert.ok(objects(quads, first, rdf.type).includes(mcp('Tool')), `types of ${first}`);
    const name = literalOf(quads, first, mcp('hasName')).value;
    const entity = `urn:mcp-ld:server/everything/tool/${encodeURIComponent(name)}`;
    assert.deepEqual(objects(quads, first, mld.describes), [entity]);
    assert.ok(objects(quads, entity, rdf.type).includes(mld.Tool));
    const call =
      records.findIndex(
        (r) => r.msg['method'] === 'tools/call' && (r.msg['params'] as { name: string }).name === name,
      ) + 1;
    assert.ok(call > 0, `the corpus calls ${name}`);
    assert.deepEqual(objects(quads, message(call), mld.tool), [entity]);
    // The same server in another session: the same entity.
    const other = liftAll(records.slice(0, 40).map((r) => ({ ...r, session: 'another' })));
    assert.ok(other.some((q) => q.object.value === entity));
  });

  it('links resources/read to the resource entity by URI', () => {
    const read = records.findIndex((r) => r.msg['method'] === 'resources/read') + 1;
    const uri = (records[read - 1]!.msg['params'] as { uri: string }).uri;
    assert.deepEqual(objects(quads, message(read), mld.resource), [
      `urn:mcp-ld:server/everything/resource/${encodeURIComponent(uri)}`,
    ]);
  });

  it('types anyOf members by what tells them apart: content blocks by their type, resource contents by text or blob', () => {
    const lifter = new Lifter(schema);
    liftIn(lifter, 'c2s', { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///a' } });
    const read = liftIn(lifter, 's2c', {
      jsonrpc: '2.0',
      id: 1,
      result: {
        contents: [
          { uri: 'file:///a', text: 'hi' },
          { uri: 'file:///b', blob: 'aGk=' },
        ],
      },
    });
    const contents = `${read.iri}/result/contents`;
    assert.ok(objects(read.quads, `${contents}/0`, rdf.type).includes(mcp('TextResourceContents')));
    assert.ok(objects(read.quads, `${contents}/1`, rdf.type).includes(mcp('BlobResourceContents')));
    liftIn(lifter, 'c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } });
    const call = liftIn(lifter, 's2c', {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        ],
      },
    });
    assert.ok(objects(call.quads, `${call.iri}/result/content/0`, rdf.type).includes(mcp('TextContent')));
    assert.ok(objects(call.quads, `${call.iri}/result/content/1`, rdf.type).includes(mcp('ImageContent')));
  });

  it('keeps tool-call arguments as an rdf:JSON literal and as name/value pairs', () => {
    const call = liftToolCall({ a: 2, b: 'x', c: { d: [1] } });
    const params = `${call.iri}/params`;
    const json = literalOf(call.quads, params, mcp('hasArguments'));
    assert.equal(json.datatype, rdf.JSON);
    assert.equal(json.value, '{"a":2,"b":"x","c":{"d":[1]}}');
    const pairs = objects(call.quads, params, mld.argument).map((a) => [
      literalOf(call.quads, a, mld.argumentName).value,
      literalOf(call.quads, a, mld.argumentValue),
    ]);
    assert.deepEqual(
      pairs.map(([n, v]) => [n, (v as { value: string }).value, (v as { datatype: string }).datatype]),
      [
        ['a', '2', xsd.integer],
        ['b', 'x', xsd.string],
        ['c', '{"d":[1]}', rdf.JSON],
      ],
    );
  });

  it('also lifts object and array argument values member by member', () => {
    const call = liftToolCall({ c: { d: [1, null], e: {} } });
    const c = `${call.iri}/params/arguments/c`;
    const [d, e] = objects(call.quads, c, mld.member);
    assert.equal(d, `${c}/d`);
    assert.equal(literalOf(call.quads, d!, mld.memberName).value, 'd');
    const items = objects(call.quads, d!, mld.member);
    assert.deepEqual(items, [`${d}/0`, `${d}/1`]);
    assert.deepEqual(
      items.map((i) => [literalOf(call.quads, i, mld.memberIndex).value, literalOf(call.quads, i, mld.memberValue)]),
      [
        ['0', { value: '1', datatype: xsd.integer }],
        ['1', { value: 'null', datatype: rdf.JSON }],
      ],
    );
    assert.equal(literalOf(call.quads, e!, mld.memberValue).value, '{}');
  });

  it('lifts tool schemas as schema and parameter nodes beside their rdf:JSON literals, linked from the tool entity', () => {
    const lifter = new Lifter(schema);
    const inputSchema = {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where', minLength: 1 },
        mode: { type: ['string', 'null'], enum: ['r', 'w', null], default: 'r' },
        opts: {
          type: 'object',
          properties: { depth: { type: 'integer', maximum: 3 } },
          required: ['depth'],
          default: { depth: 1 },
        },
        tags: { type: 'array', items: { type: 'string', format: 'uri' } },
      },
      required: ['path'],
    };
    const outputSchema = { type: 'object', properties: { size: { type: 'number' } }, additionalProperties: false };
    lifter.lift({ session: 's', server: 'fs', seq: 1, msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    const list = lifter.lift({
      session: 's',
      server: 'fs',
      seq: 2,
      msg: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'read', inputSchema, outputSchema }] } },
    });
    const tool = `${list.iri}/result/tools/0`;
    const q = list.quads;
    assert.equal(literalOf(q, tool, mcp('hasInputSchema')).datatype, rdf.JSON);
    const root = `${tool}/inputSchema`;
    assert.deepEqual(objects(q, tool, mld.inputSchema), [root]);
    assert.ok(objects(q, root, rdf.type).includes(mld.Schema));
    assert.equal(literalOf(q, root, mld.jsonType).value, 'object');
    const parameters = objects(q, tool, mld.inputParameter);
    assert.deepEqual(
      parameters,
      ['path', 'mode', 'opts', 'tags'].map((n) => `${root}/properties/${n}`),
    );
    assert.deepEqual(objects(q, root, mld.nestedParameter), parameters);
    const [path, mode, opts, tags] = parameters as [string, string, string, string];
    assert.ok(objects(q, path, rdf.type).includes(mld.Parameter));
    assert.deepEqual(
      [mld.parameterName, mld.jsonType, mld.required, mld.description, mld.minLength].map((p) => literalOf(q, path, p)),
      [
        { value: 'path', datatype: xsd.string },
        { value: 'string', datatype: xsd.string },
        { value: 'true', datatype: xsd.boolean },
        { value: 'Where', datatype: xsd.string },
        { value: '1', datatype: xsd.integer },
      ],
    );
    const literals = (subject: string, predicate: string) =>
      q
        .filter((x) => x.subject.value === subject && x.predicate.value === predicate)
        .map((x) => `${x.object.value}^^${(x.object as { datatype: { value: string } }).datatype.value}`);
    assert.deepEqual(literals(mode, mld.jsonType), [`string^^${xsd.string}`, `null^^${xsd.string}`]);
    assert.deepEqual(literals(mode, mld.enumValue), [`r^^${xsd.string}`, `w^^${xsd.string}`, `null^^${rdf.JSON}`]);
    assert.deepEqual(literals(mode, mld.required), [`false^^${xsd.boolean}`]);
    assert.deepEqual(literals(mode, mld.default), [`r^^${xsd.string}`]);
    assert.deepEqual(literals(opts, mld.default), [`{"depth":1}^^${rdf.JSON}`]);
    const depth = `${opts}/properties/depth`;
    assert.deepEqual(objects(q, opts, mld.nestedParameter), [depth]);
    assert.deepEqual(
      [literals(depth, mld.required), literals(depth, mld.maximum)],
      [[`true^^${xsd.boolean}`], [`3^^${xsd.integer}`]],
    );
    assert.deepEqual(objects(q, tags, mld.items), [`${tags}/items`]);
    assert.deepEqual(literals(`${tags}/items`, mld.format), [`uri^^${xsd.string}`]);
    // Only top-level parameters hang off the tool; the output schema's likewise.
    assert.ok(!parameters.includes(depth));
    assert.deepEqual(objects(q, tool, mld.outputParameter), [`${tool}/outputSchema/properties/size`]);
    assert.deepEqual(literals(`${tool}/outputSchema`, mld.additionalProperties), [`false^^${xsd.boolean}`]);
    // The tool entity has the parameters of its descriptions.
    const entity = objects(q, tool, mld.describes)[0]!;
    assert.deepEqual(objects(q, entity, mld.inputParameter), parameters);
    assert.deepEqual(objects(q, entity, mld.outputParameter), [`${tool}/outputSchema/properties/size`]);
  });

  it('lifts structured content as member nodes beside its rdf:JSON literal', () => {
    const lifter = new Lifter(schema);
    lifter.lift({
      session: 's',
      seq: 1,
      msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'where' } },
    });
    const structuredContent = { city: 'Lisbon', at: { lat: 38.7, lon: -9.1 }, tags: ['a'], none: null };
    const answer = lifter.lift({
      session: 's',
      seq: 2,
      msg: { jsonrpc: '2.0', id: 1, result: { content: [], structuredContent, isError: true } },
    });
    const result = `${answer.iri}/result`;
    const q = answer.quads;
    assert.equal(
      literalOf(q, result, mcp('hasStructuredContent')).value,
      '{"at":{"lat":38.7,"lon":-9.1},"city":"Lisbon","none":null,"tags":["a"]}',
    );
    const base = `${result}/structuredContent`;
    assert.deepEqual(
      objects(q, result, mld.structuredMember),
      ['city', 'at', 'tags', 'none'].map((k) => `${base}/${k}`),
    );
    assert.ok(objects(q, `${base}/city`, rdf.type).includes(mld.Member));
    assert.deepEqual(literalOf(q, `${base}/city`, mld.memberValue), { value: 'Lisbon', datatype: xsd.string });
    assert.deepEqual(objects(q, `${base}/at`, mld.member), [`${base}/at/lat`, `${base}/at/lon`]);
    assert.deepEqual(literalOf(q, `${base}/at/lat`, mld.memberValue), { value: '3.87E1', datatype: xsd.double });
    assert.deepEqual(literalOf(q, `${base}/tags/0`, mld.memberIndex), { value: '0', datatype: xsd.integer });
    assert.deepEqual(literalOf(q, `${base}/none`, mld.memberValue), { value: 'null', datatype: rdf.JSON });
    assert.equal(
      q.filter((x) => x.subject.value === `${base}/at`).some((x) => x.predicate.value === mld.memberValue),
      false,
      'an object member has members, not a value',
    );
  });

  it('keeps keys and methods the schema does not know under the extension vocabulary, lifted like the rest', () => {
    const lifter = new Lifter(schema);
    const lifted = lifter.lift({
      session: 's',
      msg: { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 'abc', opts: { deep: [1, 'two'] } } },
    });
    const types = objects(lifted.quads, lifted.iri, rdf.type);
    assert.ok(types.includes(jrpc.Request) && types.includes(mld.UnknownMessage));
    const params = `${lifted.iri}/params`;
    assert.equal(literalOf(lifted.quads, params, `${ns.mldx}taskId`).value, 'abc');
    const opts = objects(lifted.quads, params, `${ns.mldx}opts`)[0]!;
    const list = objects(lifted.quads, opts, `${ns.mldx}deep`)[0]!;
    assert.deepEqual(objects(lifted.quads, list, rdf.first), ['1']);
    const rest = objects(lifted.quads, list, rdf.rest)[0]!;
    assert.deepEqual(objects(lifted.quads, rest, rdf.first), ['two']);
    assert.deepEqual(objects(lifted.quads, rest, rdf.rest), [rdf.nil]);
    // The message lists the keys it uses that the schema does not know, at any depth, each once.
    assert.deepEqual(
      objects(lifted.quads, lifted.iri, mld.extensionKey),
      ['taskId', 'opts', 'deep'].map((key) => `${ns.mldx}${key}`),
    );
    const known = lifter.lift({ session: 's', msg: { jsonrpc: '2.0', id: 2, method: 'ping' } });
    assert.deepEqual(objects(known.quads, known.iri, mld.extensionKey), []);
    assert.deepEqual(objects(known.quads, known.iri, mld.extensionKeyUse), []);
  });

  it('counts on the message how many times it uses each key the schema does not know, at any depth', () => {
    const lifter = new Lifter(schema);
    // `note` four times: on the message, in params, in a list item of params and in an object under another unknown
    // key (`extra`); `$ref` once (its predicate percent-encoded).
    const lifted = lifter.lift({
      session: 's',
      msg: {
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        note: 'top',
        extra: { note: 'below', $ref: '#/a' },
        params: { note: 1, items: [{ note: true }, 2] },
      },
    });
    const uses = objects(lifted.quads, lifted.iri, mld.extensionKeyUse);
    const counted = new Map(
      uses.map((use) => {
        assert.ok(use.startsWith(`${lifted.iri}/`), 'a use node is one of the message');
        assert.deepEqual(objects(lifted.quads, use, rdf.type), [mld.ExtensionKeyUse]);
        const [key] = objects(lifted.quads, use, mld.usedKey);
        const occurrences = literalOf(lifted.quads, use, mld.occurrences);
        assert.equal(occurrences.datatype, xsd.integer);
        return [key!, Number(occurrences.value)];
      }),
    );
    assert.deepEqual(
      counted,
      new Map([
        [`${ns.mldx}note`, 4],
        [`${ns.mldx}extra`, 1],
        [`${ns.mldx}%24ref`, 1],
        [`${ns.mldx}items`, 1],
      ]),
    );
    // As many as the extension predicates' triples in the message, and the same keys as mld:extensionKey lists.
    const triples = lifted.quads.filter((q) => q.predicate.value.startsWith(ns.mldx));
    assert.equal(
      triples.length,
      [...counted.values()].reduce((a, b) => a + b),
    );
    assert.deepEqual(objects(lifted.quads, lifted.iri, mld.extensionKey).sort(), [...counted.keys()].sort());
  });

  it('gives a value whose annotated datatype does not fit a datatype that does', () => {
    const lifter = new Lifter(schema);
    const lifted = lifter.lift({
      session: 's',
      msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 5, progress: 2.5, total: 10 } },
    });
    const params = `${lifted.iri}/params`;
    assert.deepEqual(literalOf(lifted.quads, params, mcp('hasProgressToken')), { value: '5', datatype: xsd.integer });
    const progress = literalOf(lifted.quads, params, mcp('hasProgress'));
    assert.equal(progress.value, '2.5E0');
    assert.equal(progress.datatype, xsd.double, 'typed xsd:double, the datatype JSON-LD gives a non-integer number');
    assert.deepEqual(literalOf(lifted.quads, params, mcp('hasTotal')), { value: '1.0E1', datatype: xsd.double });
  });

  it('counts a request as client→server and roots/list as server→client when plain messages say nothing', () => {
    const lifter = new Lifter(schema);
    assert.equal(lifter.lift({ msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }).direction, 'c2s');
    assert.equal(lifter.lift({ msg: { jsonrpc: '2.0', id: 2, method: 'roots/list' } }).direction, 's2c');
    const answer = lifter.lift({ msg: { jsonrpc: '2.0', id: 2, result: { roots: [] } } });
    assert.equal(answer.direction, 'c2s');
    assert.equal(answer.definition, 'ListRootsResult');
  });

  it('lifts a response whose request is unknown by the result definition its shape alone fits', () => {
    const lifter = new Lifter(schema);
    const tools = lifter.lift({
      msg: { jsonrpc: '2.0', id: 9, result: { tools: [{ name: 'x', inputSchema: { type: 'object' } }] } },
    });
    assert.equal(tools.definition, 'ListToolsResult');
    const vague = lifter.lift({ msg: { jsonrpc: '2.0', id: 10, result: { something: 1 } } });
    assert.equal(vague.definition, undefined);
    assert.ok(objects(vague.quads, vague.iri, rdf.type).includes(mcp('Result')));
    assert.equal(literalOf(vague.quads, `${vague.iri}/result`, `${ns.mldx}something`).value, '1');
  });

  it('lifts errors with code, message, data and the JSON-RPC error class of the code', () => {
    const lifter = new Lifter(schema);
    const lifted = lifter.lift({
      msg: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found', data: { method: 'x' } } },
    });
    const error = `${lifted.iri}/error`;
    assert.ok(objects(lifted.quads, lifted.iri, rdf.type).includes(jrpc.ErrorResponse));
    assert.ok(objects(lifted.quads, error, rdf.type).includes(`${ns.jrpc}MethodNotFound`));
    assert.equal(literalOf(lifted.quads, error, `${ns.jrpc}hasErrorCode`).value, '-32601');
    assert.equal(literalOf(lifted.quads, error, `${ns.jrpc}hasErrorMessage`).value, 'Method not found');
    assert.equal(literalOf(lifted.quads, error, `${ns.jrpc}hasErrorData`).value, '{"method":"x"}');
  });

  it('records validation problems as nodes on the message', () => {
    const lifter = new Lifter(schema);
    const lifted = lifter.lift({ msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} } });
    assert.equal(lifted.problems.length, 1);
    const [result] = objects(lifted.quads, lifted.iri, mld.validationResult);
    assert.ok(result);
    assert.equal(literalOf(lifted.quads, result, mld.instancePath).value, '/params');
    assert.match(literalOf(lifted.quads, result, mld.message).value, /required property 'name'/);
  });

  it('is deterministic: the same input gives the same quads, byte for byte', () => {
    const again = liftAll(records);
    assert.equal(writeNQuads(again), writeNQuads(quads));
    const examples = ogcExamples().map(({ msg }) => ({ session: 'ogc', msg }));
    assert.equal(writeNQuads(liftAll(examples)), writeNQuads(liftAll(examples)));
  });

  it('writes the same N-Quads through its text path as through RDF-JS quads', () => {
    const viaQuads = new Lifter(schema);
    const viaText = new Lifter(schema);
    const inputs = [...records, ...ogcExamples().map(({ msg }) => ({ session: 'ogc', msg }))];
    for (const [i, record] of inputs.entries()) {
      const text = viaText.liftToNQuads(record);
      const lifted = viaQuads.lift(record);
      assert.equal(text.nquads, writeNQuads(lifted.quads), `message ${i + 1}`);
      assert.equal(text.quadCount, lifted.quads.length);
    }
  });

  it('gives the same N-Quads in parts as in one text, a message of more than 256 quads in parts of 256', () => {
    const whole = new Lifter(schema);
    const inParts = new Lifter(schema);
    const inputs = [...records, ...ogcExamples().map(({ msg }) => ({ session: 'ogc', msg }))];
    let split = 0;
    for (const [i, record] of inputs.entries()) {
      const text = whole.liftToNQuads(record).nquads;
      const parts = inParts.liftToNQuadsParts(record).nquadsParts;
      assert.equal(parts.join(''), text, `message ${i + 1}`);
      for (const part of parts.slice(0, -1)) assert.equal(part.split('\n').length - 1, 256, `message ${i + 1}`);
      if (parts.length > 1) split++;
    }
    assert.ok(split > 0, 'some message of the capture has more than 256 quads');
  });

  it('refuses a base IRI that N-Quads cannot carry', () => {
    assert.throws(() => new Lifter(schema, { base: 'urn:with space/' }), /Bad base IRI/);
    assert.throws(() => new Lifter(schema, { base: 'relative/' }), /Bad base IRI/);
  });

  it('names and orders captured messages by their capture seq: the same records lifted again give the same quads', () => {
    const pair = records.slice(0, 2).map((r) => ({ ...r, seq: (r.seq ?? 0) + 1000 }));
    const ofPair = (quads: Quad[]) =>
      new Set(writeNQuads(quads.filter((q) => /\/message\/100[12](\/|$)/.test(q.subject.value))).split('\n'));
    const fresh = liftAll(pair);
    assert.ok(fresh.some((q) => q.subject.value === `${session}/message/1001`));
    const busy = new Lifter(schema);
    for (const r of records.slice(0, 30)) busy.lift(r); // a long-lived lifter that has seen other messages
    const again = pair.flatMap((r) => busy.lift(r).quads);
    assert.deepEqual(ofPair(again), ofPair(fresh));
  });

  it('keeps the state of a bounded number of sessions, forgetting the least recently used', () => {
    const lifter = new Lifter(schema, { maxSessions: 2 });
    lifter.lift({ session: 'a', dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    lifter.lift({ session: 'b', dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    lifter.lift({ session: 'a', dir: 'c2s', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } }); // a is used again
    lifter.lift({ session: 'c', dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }); // b is forgotten
    const answerA = lifter.lift({ session: 'a', dir: 's2c', msg: { jsonrpc: '2.0', id: 1, result: { tools: [] } } });
    const answerB = lifter.lift({ session: 'b', dir: 's2c', msg: { jsonrpc: '2.0', id: 1, result: { tools: [] } } });
    assert.equal(objects(answerA.quads, answerA.iri, mld.respondsTo).length, 1, 'a still knows its request');
    assert.equal(objects(answerB.quads, answerB.iri, mld.respondsTo).length, 0, 'b forgot its request');
    assert.equal(answerB.definition, 'ListToolsResult', 'and lifts the answer by its shape');
  });

  it('uses no blank nodes', () => {
    assert.ok(quads.every((q) => q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode'));
  });
});
