// The store the query tests run on: two real captures (server-everything, and the field-notes server with output
// schemas and structured content), the OGC examples (plain messages, one session) and a small synthetic session
// written here for the edge cases the corpus lacks (a string id that reads like a number id, a progress token inside
// an rdf:JSON `_meta`, an empty roots list, a latency over a day, tool schemas that change between listings, a tool
// error with structured content). All of it lifted with the
// Lifter and ingested into the embedded store; beside it, a plain model of the same messages built from the JSON
// alone (request/response matching by session, id and direction), from which the tests compute what to expect.
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { captureRecords, captures, ogcExamples, trafficRecords } from '../helpers/corpus.js';

export const ogcSession = 'ogc-examples';
export const edgeSession = 'edge-cases';

/** A session written for the cases the corpus lacks. */
export function edgeRecords(): CaptureRecord[] {
  const records: Omit<CaptureRecord, 'session' | 'server' | 'seq'>[] = [
    {
      ts: '2026-01-01T10:00:00.000Z',
      dir: 'c2s',
      msg: {
        jsonrpc: '2.0',
        id: 'a',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'edge-client', version: '9' } },
      },
    },
    {
      ts: '2026-01-01T10:00:00.100Z',
      dir: 's2c',
      msg: {
        jsonrpc: '2.0',
        id: 'a',
        result: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          serverInfo: { name: 'edge-server-impl', version: '1.2' },
        },
      },
    },
    // A ping asking for progress: in the schema, ping's params._meta is an rdf:JSON literal.
    {
      ts: '2026-01-01T10:00:01.000Z',
      dir: 'c2s',
      msg: { jsonrpc: '2.0', id: 7, method: 'ping', params: { _meta: { progressToken: 'tok-1' } } },
    },
    {
      ts: '2026-01-01T10:00:01.250Z',
      dir: 's2c',
      msg: {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok-1', progress: 1, total: 2 },
      },
    },
    { ts: '2026-01-01T10:00:01.500Z', dir: 's2c', msg: { jsonrpc: '2.0', id: 7, result: {} } },
    // Id "7" (a string) is not id 7: the cancellation names the string one, which never gets an answer.
    {
      ts: '2026-01-01T10:00:02.000Z',
      dir: 'c2s',
      msg: {
        jsonrpc: '2.0',
        id: '7',
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: '"} ; DROP ALL ; {' } },
      },
    },
    {
      ts: '2026-01-01T10:00:02.400Z',
      dir: 'c2s',
      msg: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '7', reason: 'too slow' } },
    },
    // An answer more than a day later, and an error.
    {
      ts: '2026-01-01T23:59:59.500Z',
      dir: 'c2s',
      msg: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { message: 'late' } } },
    },
    {
      ts: '2026-01-03T00:00:00.250Z',
      dir: 's2c',
      msg: { jsonrpc: '2.0', id: 8, error: { code: -32603, message: 'gave up' } },
    },
    // A server request answered with an empty list of roots.
    { ts: '2026-01-03T00:00:01.000Z', dir: 's2c', msg: { jsonrpc: '2.0', id: 0, method: 'roots/list' } },
    { ts: '2026-01-03T00:00:01.003Z', dir: 'c2s', msg: { jsonrpc: '2.0', id: 0, result: { roots: [] } } },
    // Two tools/list answers: grep's inputSchema changes (path becomes required), stat's outputSchema goes; a listing
    // whose keys are only reordered is no change. Then a tool error that says how in structured content.
    { ts: '2026-01-03T00:00:02.000Z', dir: 'c2s', msg: { jsonrpc: '2.0', id: 9, method: 'tools/list' } },
    {
      ts: '2026-01-03T00:00:02.010Z',
      dir: 's2c',
      msg: { jsonrpc: '2.0', id: 9, result: { tools: [grepTool(false), statTool(true)] } },
    },
    { ts: '2026-01-03T00:00:03.000Z', dir: 'c2s', msg: { jsonrpc: '2.0', id: 10, method: 'tools/list' } },
    {
      ts: '2026-01-03T00:00:03.010Z',
      dir: 's2c',
      msg: { jsonrpc: '2.0', id: 10, result: { tools: [grepTool(true), statTool(false)] } },
    },
    { ts: '2026-01-03T00:00:04.000Z', dir: 'c2s', msg: { jsonrpc: '2.0', id: 11, method: 'tools/list' } },
    {
      ts: '2026-01-03T00:00:04.010Z',
      dir: 's2c',
      msg: {
        jsonrpc: '2.0',
        id: 11,
        result: { tools: [{ ...grepTool(true), inputSchema: reordered(grepTool(true).inputSchema) }, statTool(false)] },
      },
    },
    {
      ts: '2026-01-03T00:00:05.000Z',
      dir: 'c2s',
      msg: { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'stat', arguments: { path: '/nowhere' } } },
    },
    {
      ts: '2026-01-03T00:00:05.020Z',
      dir: 's2c',
      msg: {
        jsonrpc: '2.0',
        id: 12,
        result: {
          content: [{ type: 'text', text: 'ENOENT' }],
          structuredContent: { code: 'ENOENT', path: '/nowhere', retry: false },
          isError: true,
        },
      },
    },
  ];
  return records.map((r, i) => ({ seq: i + 1, session: edgeSession, server: 'edge', ...r }));
}

function grepTool(pathRequired: boolean): JsonObject {
  return {
    name: 'grep',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: ['string', 'null'], description: 'Where to look' } },
      required: pathRequired ? ['pattern', 'path'] : ['pattern'],
    },
  };
}

function statTool(withOutput: boolean): JsonObject {
  const tool: JsonObject = {
    name: 'stat',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  };
  if (withOutput) tool['outputSchema'] = { type: 'object', properties: { size: { type: 'integer' } } };
  return tool;
}

/** The same object with its keys in reverse order (the same canonical JSON). */
function reordered(value: JsonValue | undefined): JsonObject {
  return Object.fromEntries(Object.entries(value as JsonObject).reverse());
}

/**
 * The corpus: every capture of every protocol version, the OGC examples, and the edge cases; with `edgeCopies`, that
 * many more sessions, each the edge cases again under the id `edge-cases-<n>` (the same times: ties everywhere).
 */
function corpusRecords(edgeCopies: number): CaptureRecord[] {
  const others = captures
    .filter(({ file }) => file !== 'traffic-everything.jsonl')
    .flatMap(({ file }) => captureRecords(file));
  const copies = Array.from({ length: edgeCopies }, (_, n) =>
    edgeRecords().map((record) => ({ ...record, session: `${edgeSession}-${n + 1}` })),
  );
  return [
    ...trafficRecords(),
    ...others,
    ...ogcExamples().map(({ msg }) => ({ session: ogcSession, msg })),
    ...edgeRecords(),
    ...copies.flat(),
  ];
}

type Kind = 'request' | 'notification' | 'result' | 'error';

/**
 * One message as the tests see it: from the JSON, plus the IRI and (for plain messages) the direction the lifter gave.
 */
export interface Message {
  session: string;
  iri: string;
  order: number;
  ts?: string;
  dir: 'c2s' | 's2c';
  server?: string;
  msg: JsonObject;
  kind: Kind;
  /** Its method; for a response, the method of the request it answers. */
  method?: string;
  /** For a response: the request it answers; for a request: its response. */
  request?: Message;
  response?: Message;
  /** The lifter's validation problems (for the validation query). */
  problems: { instancePath: string; schemaPath: string; keyword: string; message: string }[];
  unknownMethod: boolean;
}

export interface Corpus {
  store: EmbeddedStore;
  messages: Message[];
  quads: import('@rdfjs/types').Quad[];
  sessionIri: (id: string) => string;
}

function idKey(session: string, requestDir: string, id: JsonValue | undefined): string {
  return `${session}|${requestDir}|${typeof id}|${String(id)}`;
}

/** Lifts and ingests the corpus (`edgeCopies` more sessions: see corpusRecords); builds the model of its messages. */
export async function corpusStore(edgeCopies = 0): Promise<Corpus> {
  const lifter = new Lifter(loadSchema());
  const store = await EmbeddedStore.open({});
  const messages: Message[] = [];
  const quads: Corpus['quads'] = [];
  const pending = new Map<string, Message>();
  for (const record of corpusRecords(edgeCopies)) {
    const lifted = lifter.lift(record);
    quads.push(...lifted.quads);
    const msg = record.msg;
    const kind: Kind =
      'method' in msg ? ('id' in msg ? 'request' : 'notification') : 'error' in msg ? 'error' : 'result';
    const message: Message = {
      session: record.session!,
      iri: lifted.iri,
      order: lifted.order,
      dir: record.dir ?? lifted.direction,
      msg,
      kind,
      problems: lifted.problems,
      unknownMethod: lifted.unknownMethod,
      ...(record.ts !== undefined ? { ts: record.ts } : {}),
      ...(record.server !== undefined ? { server: record.server } : {}),
      ...(typeof msg['method'] === 'string' ? { method: msg['method'] } : {}),
    };
    if (kind === 'request') pending.set(idKey(message.session, message.dir, msg['id']), message);
    if (kind === 'result' || kind === 'error') {
      const requestDir = message.dir === 'c2s' ? 's2c' : 'c2s';
      const key = idKey(message.session, requestDir, msg['id']);
      const request = pending.get(key);
      if (request) {
        pending.delete(key);
        message.request = request;
        request.response = message;
        if (request.method !== undefined) message.method = request.method;
      }
    }
    messages.push(message);
  }
  await store.ingest(quadsToNQuads(quads));
  return { store, messages, quads, sessionIri: (id) => lifter.minter.session(id) };
}

/** Milliseconds from one ISO timestamp to another. */
export function msBetween(from: string, to: string): number {
  return Date.parse(to) - Date.parse(from);
}

/** JSON with object keys sorted (the canonical form of rdf:JSON literals, for objects of strings and numbers). */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
