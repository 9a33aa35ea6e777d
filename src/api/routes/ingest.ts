// POST /ingest: lifts the messages in the body and stores them. A JSON body (a message or a batch) is read whole
// (body limit); NDJSON/JSONL of any length is read as a stream, line by line, lifted and stored in batches, so memory
// does not grow with the body (each line is held to the body limit). Bad lines are reported with their line number
// and skipped; ?strict=true stores nothing unless every line is a valid message. Sessions come from capture
// records, else the MCP-LD-Session header, else one is minted and returned. Reading and lifting run in a thread of
// their
// own (ingest-lifting.ts), whose lifters serve every request, so a request and its response in different POSTs (a tap
// bridging into the service) still match.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import type { ProtocolVersion } from '../../schema/index.js';
import { protocolQueryField } from './convert.js';
import { failedInputError, listedFailure, type ConversionSummary } from '../../lift/convert.js';
import type { IngestLifting } from '../ingest-lifting.js';
import type { StreamedLine } from '../ingest-thread.js';
import { sessionProblem } from '../../lift/records.js';
import { BatchWriter } from '../../store/batch-writer.js';
import { LineSplitter, type SplitLine } from '../../core/line-splitter.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { requireWriteToken } from '../write-token.js';
import { messageBody, messageMediaTypes } from './raw-bodies.js';
import { problems, writeTokenIfConfigured } from '../openapi.js';
import type { StoreRouteOptions } from './store-route-options.js';

const streamedTypes = ['application/x-ndjson', 'application/jsonl', 'application/json-lines'];
const maxListedErrors = 100;
/** Lines of a streamed body sent to the lifting thread at once (and so the most one chunk holds). */
const linesPerChunk = 1000;

/**
 * A streamed line as the lifting thread gets it: bytes that are not UTF-8 are refused, naming their offset in the body.
 */
function streamedLine({ bytes, offset }: SplitLine, line: number, lineLimit: number): StreamedLine {
  if (bytes.length > lineLimit) return { line, tooLong: lineLimit };
  try {
    return { line, text: decodeUtf8(bytes, offset, line) };
  } catch (error) {
    if (!(error instanceof McpLdError)) throw error;
    return { line, refused: { code: error.code, status: error.status, title: error.title, detail: error.detail } };
  }
}

/** The lines of a streamed NDJSON body, a chunk at a time; a line over `lineLimit` by its number only. */
async function* streamedLines(body: Readable, lineLimit: number): AsyncGenerator<StreamedLine[]> {
  const splitter = new LineSplitter();
  let line = 0;
  let lines: StreamedLine[] = [];
  for await (const chunk of body) {
    for (const split of splitter.push(chunk as Buffer)) {
      line += 1;
      lines.push(streamedLine(split, line, lineLimit));
      if (lines.length >= linesPerChunk) {
        yield lines;
        lines = [];
      }
    }
    if (splitter.pendingBytes > lineLimit) {
      if (lines.length > 0) yield lines;
      throw McpLdError.of('input.line-too-long', {
        detail: `line ${line + 1} is longer than the limit of ${lineLimit} bytes (MCPLD_BODY_LIMIT)`,
        line: line + 1,
      });
    }
    if (lines.length > 0) {
      yield lines;
      lines = [];
    }
  }
  const last = splitter.end();
  if (last !== undefined) yield [streamedLine(last, line + 1, lineLimit)];
}

const counts = { type: 'integer', minimum: 0 } as const;

/** The answer of an ingest: what was lifted and what was stored (report below). */
const ingestSummarySchema = {
  type: 'object',
  description: 'what was lifted and stored; every bad line (up to 100) in errors',
  required: ['messages', 'quads', 'sessions', 'invalid', 'unknownMethods', 'stored', 'failedLines', 'errors'],
  properties: {
    session: { type: 'string', description: 'the session plain messages were stored in (also in MCP-LD-Session)' },
    messages: counts,
    quads: counts,
    sessions: { type: 'array', items: { type: 'string' }, description: 'the sessions the messages went to' },
    invalid: counts,
    unknownMethods: counts,
    stored: {
      type: 'object',
      required: ['quads', 'batches', 'messages'],
      properties: { quads: counts, batches: counts, messages: counts },
      additionalProperties: false,
    },
    failedLines: counts,
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['line', 'title', 'detail'],
        properties: { line: counts, index: counts, title: { type: 'string' }, detail: { type: 'string' } },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

function report(
  summary: ConversionSummary,
  sessions: string[],
  stored: { quads: number; batches: number },
  session?: string,
) {
  return {
    ...(session ? { session } : {}),
    messages: summary.messages,
    quads: summary.quads,
    sessions,
    invalid: summary.invalid,
    unknownMethods: summary.unknownMethods,
    stored,
    failedLines: summary.failed.length,
    errors: summary.failed.slice(0, maxListedErrors).map(listedFailure),
  };
}

export const ingestRoutes: FastifyPluginAsync<StoreRouteOptions & { lifting: IngestLifting }> = async (
  app,
  { store, config, metrics, lifting },
) => {
  // Only the media types of messages: a `text/plain` body is what any web page may send cross-site without asking.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser(streamedTypes, (_request, payload, done) => done(null, payload));

  app.post<{ Querystring: { strict?: boolean; batch?: number; protocol?: ProtocolVersion }; Body: unknown }>(
    '/ingest',
    {
      schema: {
        summary: 'Lift MCP messages and store them',
        description:
          'Body: one JSON-RPC message or a batch (application/json), or NDJSON of messages or capture records of any length (application/x-ndjson, streamed). Plain messages go to the session of the MCP-LD-Session header, or a new one (returned).',
        tags: ['ingest'],
        security: writeTokenIfConfigured,
        consumes: messageMediaTypes,
        headers: {
          type: 'object',
          properties: {
            'mcp-ld-session': {
              type: 'string',
              description: 'the session of plain messages (default: a new one, returned in MCP-LD-Session)',
            },
          },
        },
        response: {
          200: ingestSummarySchema,
          ...problems(401, 403, 408, 413, 415, 422, 423, 429, 503, 504, 507),
        },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            strict: {
              type: 'boolean',
              default: false,
              description: 'store nothing unless every line is a valid MCP message',
            },
            batch: {
              type: 'integer',
              minimum: 1,
              maximum: 100000,
              default: 1000,
              description: 'messages per store batch',
            },
            protocol: protocolQueryField,
          },
        },
      },
      config: messageBody('the MCP messages to store'),
    },
    async (request, reply) => {
      requireWriteToken(request, config.writeToken, false);
      const header = request.headers['mcp-ld-session'];
      const requested = (Array.isArray(header) ? header[0] : header)?.trim();
      const problem = requested ? sessionProblem(requested) : undefined;
      if (problem) throw McpLdError.of('http.session', { detail: `the MCP-LD-Session header ${problem}` });
      const session = requested || randomUUID();
      const strict = request.query.strict === true;
      const batch = strict ? Number.MAX_SAFE_INTEGER : (request.query.batch ?? 1000);
      const writer = new BatchWriter(store, batch);
      const streamed = streamedTypes.includes(
        String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim(),
      );
      // Reading and lifting happen in the lifting thread; here only bytes move, to the store.
      const ingest = await lifting.begin({
        ...(request.query.protocol ? { protocol: request.query.protocol } : {}),
        strict,
        session,
      });
      try {
        if (streamed) {
          for await (const lines of streamedLines(request.body as Readable, config.bodyLimit)) {
            const lifted = await ingest.lines(lines);
            await writer.addBytes(lifted.nquads, lifted.messages);
            if (writer.error) break;
          }
        } else {
          await ingest.body(typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : '');
          for (let done = false; !done && !writer.error;) {
            const lifted = await ingest.next(Math.min(batch, linesPerChunk));
            await writer.addBytes(lifted.nquads, lifted.messages);
            done = lifted.done;
          }
        }
      } catch (error) {
        await ingest.abort();
        // Strict: nothing is stored (the one batch is never written). Otherwise the body failed part way (an endless
        // line: 413): what was stored before stays, the batch in hand is written too, and the answer says what.
        if (strict) throw error;
        await writer.finish();
        throw error instanceof McpLdError ? error.extend({ stored: writer.stored }) : error;
      }
      await writer.finish();
      const { summary, sessions, usedSession } = await ingest.end();
      const body = report(summary, sessions, writer.stored, usedSession ? session : undefined);
      if (writer.error) throw writer.error.extend({ stored: writer.stored });
      if (summary.messages === 0) {
        const first = summary.failed[0];
        if (!first)
          throw McpLdError.of('input.empty', { detail: 'the body holds no message', extensions: { errors: [] } });
        throw failedInputError(
          summary.failed,
          `no line is an MCP message (${summary.failed.length} bad line(s)); nothing was stored`,
          maxListedErrors,
        );
      }
      metrics.count('mcpld_ingested_messages_total', 'MCP messages stored', {}, writer.stored.messages);
      metrics.count('mcpld_ingested_quads_total', 'Quads stored', {}, writer.stored.quads);
      if (usedSession) reply.header('MCP-LD-Session', session);
      return body;
    },
  );
};
