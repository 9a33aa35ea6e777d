// POST /ingest: lifts the messages in the body and stores them. A JSON body (a message or a batch) is read whole
// (body limit); NDJSON/JSONL of any length is read as a stream, line by line, lifted and stored in batches, so memory
// does not grow with the body (each line is held to the body limit). Bad lines are reported with their line number
// and skipped; ?strict=true stores nothing unless every line is a valid message. Sessions come from capture
// records, else the MCP-LD-Session header, else one is minted and returned. One lifter serves every request, so a
// request and its response in different POSTs (a tap bridging into the service) still match.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { loadSchema, seedVersion, type ProtocolVersion } from '../../schema/index.js';
import { protocolQueryField } from './convert.js';
import { Lifter } from '../../lift/lifter.js';
import { Conversion, type ConversionSummary } from '../../lift/convert.js';
import { parseInput, parseLine, type InputItem } from '../../lift/input.js';
import { sessionProblem } from '../../lift/records.js';
import { BatchWriter } from '../../store/batch-writer.js';
import { LineSplitter, type SplitLine } from '../../tap/line-splitter.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { requireWriteToken } from '../write-token.js';
import { messageMediaTypes } from './raw-bodies.js';
import type { StoreRouteOptions } from './sparql.js';

const streamedTypes = ['application/x-ndjson', 'application/jsonl', 'application/json-lines'];
const maxListedErrors = 100;

/** The item of one streamed line: bytes that are not UTF-8 are refused, naming their offset in the body. */
function lineItem({ bytes, offset }: SplitLine, line: number): InputItem | undefined {
  try {
    return parseLine(decodeUtf8(bytes, offset, line), line);
  } catch (error) {
    if (error instanceof McpLdError) return { line, error };
    throw error;
  }
}

/** The items of a streamed NDJSON body, one line at a time. */
async function* streamedItems(body: Readable, lineLimit: number): AsyncGenerator<InputItem> {
  const splitter = new LineSplitter();
  let line = 0;
  for await (const chunk of body) {
    for (const split of splitter.push(chunk as Buffer)) {
      line += 1;
      if (split.bytes.length > lineLimit) {
        yield { line, error: new McpLdError({ code: 'input.line-too-long', status: 413, title: 'Line too long', detail: `line ${line} is longer than the limit of ${lineLimit} bytes (MCPLD_BODY_LIMIT)`, line }) };
        continue;
      }
      const item = lineItem(split, line);
      if (item) yield item;
    }
    if (splitter.pendingBytes > lineLimit) {
      throw new McpLdError({ code: 'input.line-too-long', status: 413, title: 'Payload too large', detail: `line ${line + 1} is longer than the limit of ${lineLimit} bytes (MCPLD_BODY_LIMIT)`, line: line + 1 });
    }
  }
  const last = splitter.end();
  if (last !== undefined) {
    const item = lineItem(last, line + 1);
    if (item) yield item;
  }
}

function itemsOf(body: unknown, streamed: boolean, lineLimit: number): AsyncIterable<InputItem> | Iterable<InputItem> {
  return streamed ? streamedItems(body as Readable, lineLimit) : parseInput(Buffer.isBuffer(body) ? body : '');
}

function report(summary: ConversionSummary, sessions: string[], stored: { quads: number; batches: number }, session?: string) {
  return {
    ...(session ? { session } : {}),
    messages: summary.messages,
    quads: summary.quads,
    sessions,
    invalid: summary.invalid,
    unknownMethods: summary.unknownMethods,
    stored,
    failedLines: summary.failed.length,
    errors: summary.failed.slice(0, maxListedErrors).map((f) => ({ line: f.line, ...(f.index !== undefined ? { index: f.index } : {}), title: f.error.title, detail: f.error.detail })),
  };
}

export const ingestRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, metrics }) => {
  // Only the media types of messages: a `text/plain` body is what any web page may send cross-site without asking.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser(streamedTypes, (_request, payload, done) => done(null, payload));
  // One lifter per default protocol version (`?protocol=`), each keeping its sessions across requests.
  const lifters = new Map<ProtocolVersion, Lifter>();
  const lifterFor = (protocol: ProtocolVersion = seedVersion): Lifter => {
    let lifter = lifters.get(protocol);
    if (lifter === undefined) lifters.set(protocol, (lifter = new Lifter(loadSchema({ protocol }))));
    return lifter;
  };

  app.post<{ Querystring: { strict?: boolean; batch?: number; protocol?: ProtocolVersion }; Body: unknown }>(
    '/ingest',
    {
      schema: {
        summary: 'Lift MCP messages and store them',
        description: 'Body: one JSON-RPC message or a batch (application/json), or NDJSON of messages or capture records of any length (application/x-ndjson, streamed). Plain messages go to the session of the MCP-LD-Session header, or a new one (returned).',
        consumes: messageMediaTypes,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            strict: { type: 'boolean', default: false, description: 'store nothing unless every line is a valid MCP message' },
            batch: { type: 'integer', minimum: 1, maximum: 100000, default: 1000, description: 'messages per store batch' },
            protocol: protocolQueryField,
          },
        },
      },
    },
    async (request, reply) => {
      requireWriteToken(request, config.writeToken, false);
      const header = request.headers['mcp-ld-session'];
      const requested = (Array.isArray(header) ? header[0] : header)?.trim();
      const problem = requested ? sessionProblem(requested) : undefined;
      if (problem) throw new McpLdError({ code: 'http.session', status: 400, title: 'Bad session', detail: `the MCP-LD-Session header ${problem}` });
      const session = requested || randomUUID();
      let usedSession = false;
      const strict = request.query.strict === true;
      const lifter = lifterFor(request.query.protocol);
      const conversion = new Conversion(lifter, { strict });
      const writer = new BatchWriter(store, strict ? Number.MAX_SAFE_INTEGER : (request.query.batch ?? 1000));
      const sessions = new Set<string>();
      const streamed = streamedTypes.includes(String(request.headers['content-type'] ?? '').split(';')[0]!.trim());

      try {
        for await (const item of itemsOf(request.body, streamed, config.bodyLimit)) {
          const record = conversion.accept(item);
          if (!record) continue;
          if (record.session === undefined) {
            record.session = session;
            usedSession = true;
          }
          sessions.add(record.session);
          await writer.add(conversion.tally(item, lifter.liftToNQuads(record)).nquads);
          if (writer.error) break;
        }
      } catch (error) {
        // Strict: nothing is stored (the one batch is never written). Otherwise the body failed part way (an endless
        // line: 413): what was stored before stays, the batch in hand is written too, and the answer says what.
        if (strict) throw error;
        await writer.finish();
        throw error instanceof McpLdError ? Object.assign(error, { stored: writer.stored }) : error;
      }
      await writer.finish();
      const summary = conversion.summary;
      const body = report(summary, [...sessions], writer.stored, usedSession ? session : undefined);
      if (writer.error) throw Object.assign(writer.error, { stored: writer.stored });
      if (summary.messages === 0) {
        const first = summary.failed[0];
        throw Object.assign(
          new McpLdError({ code: first?.error.code ?? 'input.empty', status: 400, title: first ? 'Nothing to ingest' : 'Empty body', detail: first ? `no line is an MCP message (${summary.failed.length} bad line(s)); nothing was stored` : 'the body holds no message', ...(first ? { line: first.line } : {}) }),
          { errors: body.errors },
        );
      }
      metrics.count('mcpld_ingested_messages_total', 'MCP messages stored', {}, writer.stored.messages);
      metrics.count('mcpld_ingested_quads_total', 'Quads stored', {}, writer.stored.quads);
      if (usedSession) reply.header('MCP-LD-Session', session);
      return body;
    },
  );
};
