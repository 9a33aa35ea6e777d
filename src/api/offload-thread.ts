// The thread behind offload.ts: checks SPARQL texts (parse-query.ts, parse-update.ts, bound-rows.ts), writes a query's
// answer in the format asked for, turns a session's triples into the answer of GET /sessions/:id (lowered messages as
// JSON, or an RDF serialization), writes the service description of /sparql, and lifts and writes the body of POST
// /convert, answering UTF-8 bytes moved back to the main thread. No HTTP here.
import { serveTasks, type TaskAnswer } from '../core/task-thread.js';
import { McpLdError } from '../core/problem.js';
import {
  boundRows,
  parseQuery,
  parseUpdate,
  writeResult,
  type BoundedQuery,
  type ResultFormat,
  type SparqlLimits,
} from '../query/index.js';
import type { Lowerer } from '../lower/lower.js';
import type { RdfFormat } from '../rdf/formats.js';
import type { ProtocolVersion } from '../schema/index.js';
import type { ProtocolSchemas } from '../lift/protocol-schemas.js';
import { parseTriples, readQueryText } from '../store/sparql-results.js';
import type { QueryText } from '../store/quad-store.js';
import { writeChunk, type ChunkRequest } from '../query/result-stream.js';
import { writeServiceDescription, type DescriptionFormat, type ServiceFacts } from './service-description.js';

export type OffloadRequest =
  | { op: 'query'; text: string; limits: SparqlLimits; maxRows: number; base?: string; sortedRowLimit?: number }
  | { op: 'update'; text: string; limits: SparqlLimits }
  | { op: 'session'; triples: Uint8Array; graph: string; format: RdfFormat | 'messages' }
  | { op: 'result'; answer: QueryText; format: ResultFormat }
  | ({ op: 'chunk' } & ChunkRequest)
  | { op: 'describe'; facts: ServiceFacts; format: DescriptionFormat }
  | ({ op: 'convert' } & ConvertRequest);

/** What POST /convert was asked: the body, and its query string resolved. */
export interface ConvertRequest {
  body: string | Uint8Array;
  /** The session of plain messages; without it, one derived from the body (as the CLI does). */
  session?: string;
  /** Compacted JSON-LD references the merged context at this URL instead of inlining it. */
  contextUrl?: string;
  base?: string;
  protocol?: ProtocolVersion;
  strict: boolean;
  engine: 'fast' | 'reference';
  format: RdfFormat;
}

/** What POST /convert answers: the RDF, and the counts for its headers. */
export interface Converted {
  body: Uint8Array;
  /** The session plain messages were put in. */
  session: string;
  messages: number;
  quads: number;
  invalid: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

let lowerer: Lowerer | undefined;

/** Loaded with the first session asked for as messages (the schema and its plans take a moment). */
async function theLowerer(): Promise<Lowerer> {
  if (!lowerer) {
    const [{ Lowerer }, { MessagePlans }, { loadSchema }] = await Promise.all([
      import('../lower/lower.js'),
      import('../lift/message-plans.js'),
      import('../schema/index.js'),
    ]);
    lowerer = new Lowerer(new MessagePlans(loadSchema()));
  }
  return lowerer;
}

function bytes(text: string): TaskAnswer<Uint8Array> {
  const value = encoder.encode(text);
  return { value, transfer: [value.buffer as ArrayBuffer] };
}

async function session(request: Extract<OffloadRequest, { op: 'session' }>): Promise<TaskAnswer<Uint8Array>> {
  const quads = parseTriples(decoder.decode(request.triples), request.graph);
  try {
    if (request.format === 'messages') return bytes(JSON.stringify((await theLowerer()).lower(quads)));
    const { serialize } = await import('../rdf/serialize.js');
    return bytes(await serialize(quads, request.format));
  } catch (error) {
    // Only a graph written by SPARQL Update can nest this deeply (lifted messages cannot).
    if (error instanceof RangeError) {
      throw McpLdError.of('session.too-deep', {
        detail: `the graph <${request.graph}> nests its nodes too deeply to be written as ${request.format === 'messages' ? 'JSON messages' : request.format}`,
      });
    }
    throw error;
  }
}

/** The plans and validators of each default protocol version, made by the first POST /convert that needs them. */
const convertVersions = new Map<ProtocolVersion | undefined, ProtocolSchemas>();

/**
 * Lifts the body of POST /convert and writes it in the negotiated format; any failed line fails it (400, all listed).
 */
async function convert(request: ConvertRequest): Promise<TaskAnswer<Converted>> {
  const [
    { loadSchema },
    { Lifter },
    { ProtocolSchemas },
    { convertText, failedInputError },
    { serialize },
    { derivedSessionId },
  ] = await Promise.all([
    import('../schema/index.js'),
    import('../lift/lifter.js'),
    import('../lift/protocol-schemas.js'),
    import('../lift/convert.js'),
    import('../rdf/serialize.js'),
    import('../lift/session-id.js'),
  ]);
  const schema = loadSchema(request.protocol ? { protocol: request.protocol } : {});
  let versions = convertVersions.get(request.protocol);
  if (!versions) convertVersions.set(request.protocol, (versions = new ProtocolSchemas(schema, undefined, true)));
  const session = request.session ?? derivedSessionId(request.body);
  const lifter = new Lifter(
    schema,
    { defaultSession: session, ...(request.base ? { base: request.base } : {}) },
    versions,
  );
  const { quads, summary } = await convertText(lifter, request.body, {
    strict: request.strict,
    engine: request.engine,
  });
  if (summary.failed.length > 0) {
    const count = summary.failed.length;
    throw failedInputError(
      summary.failed,
      count === 1 ? summary.failed[0]!.error.detail : `${count} lines are not MCP messages; nothing was converted`,
    );
  }
  const { value, transfer } = bytes(await serialize(quads, request.format, request.contextUrl));
  return {
    value: { body: value, session, messages: summary.messages, quads: summary.quads, invalid: summary.invalid },
    ...(transfer ? { transfer } : {}),
  };
}

serveTasks<OffloadRequest, BoundedQuery | string | Uint8Array | Converted>(async (request) => {
  switch (request.op) {
    case 'query':
      return {
        value: boundRows(
          parseQuery(request.text, { limits: request.limits, ...(request.base ? { base: request.base } : {}) }),
          request.maxRows,
          request.sortedRowLimit,
        ),
      };
    case 'update':
      return { value: parseUpdate(request.text, { limits: request.limits }).text };
    case 'session':
      return session(request);
    case 'result':
      return bytes(await writeResult(readQueryText(request.answer), request.format));
    case 'chunk':
      return bytes(await writeChunk(request));
    case 'describe':
      return bytes(await writeServiceDescription(request.facts, request.format));
    case 'convert':
      return convert(request);
  }
});
