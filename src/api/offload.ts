// The CPU-bound part of requests runs in worker threads (offload-thread.ts), so that a large or tricky request never
// holds up the event loop: /health and every other request keep being answered while it runs. Two threads: one checks
// SPARQL texts (quick: at most MCPLD_MAX_QUERY_BYTES each), one writes — a query's answer in the format asked for, a
// session as JSON messages or RDF, the service description, the body of POST /convert — so that checking never
// waits behind a long write. Each task has the query time limit; at most 32 wait for a thread (then 429). Answers
// come back as Buffers over the thread's own bytes.
import { McpLdError } from '../core/problem.js';
import type { ServiceConfig } from '../core/config.js';
import { TaskThread } from '../core/task-thread.js';
import type { RdfFormat } from '../rdf/formats.js';
import { writeResult, type BoundedQuery, type ResultFormat, type SparqlLimits } from '../query/index.js';
import type { QueryText } from '../store/quad-store.js';
import { readQueryText } from '../store/sparql-results.js';
import type { ConvertRequest, Converted, OffloadRequest } from './offload-thread.js';
import { writeChunk, type ChunkRequest } from '../query/result-stream.js';
import type { DescriptionFormat, ServiceFacts } from './service-description.js';

const threadUrl = new URL('./offload-thread.js', import.meta.url);

/**
 * Most tasks that wait for a thread. Most take a millisecond (a query to check), so a burst of requests waits here
 * without being refused; the bound keeps what they hold (each at most the body limit) bounded.
 */
const maxWaitingTasks = 32;

/** Answers up to this size are written on the event loop: about 1 ms per 20 KiB. */
const smallAnswerBytes = 64 * 1024;

function offloadThread(name: string): TaskThread<OffloadRequest, unknown> {
  const thread = new TaskThread<OffloadRequest, unknown>(threadUrl, {
    maxWaiting: maxWaitingTasks,
    busyError: () =>
      McpLdError.of('service.busy', {
        detail: `${maxWaitingTasks} requests are waiting for ${name} already; try again in a second`,
        retryAfter: 1,
      }),
    name,
  });
  thread.warm();
  return thread;
}

export class Offload {
  private readonly checks = offloadThread('the thread that checks SPARQL');
  private readonly writes = offloadThread('the thread that writes answers');
  private readonly limits: SparqlLimits;

  constructor(private readonly config: ServiceConfig) {
    this.limits = { maxBytes: config.maxQueryBytes, maxDepth: config.maxQueryDepth };
  }

  /**
   * A query checked (parse-query.ts, relative IRIs against `base`) and bounded to the result row limit (bound-rows.ts).
   */
  query(text: string, base?: string, sortedRowLimit?: number): Promise<BoundedQuery> {
    return this.run(
      this.checks,
      {
        op: 'query',
        text,
        limits: this.limits,
        maxRows: this.config.maxResultRows,
        ...(base ? { base } : {}),
        ...(sortedRowLimit !== undefined ? { sortedRowLimit } : {}),
      },
      'checking the query',
    ) as Promise<BoundedQuery>;
  }

  /** An update checked (parse-update.ts): the text the store applies. */
  update(text: string): Promise<string> {
    return this.run(this.checks, { op: 'update', text, limits: this.limits }, 'checking the update') as Promise<string>;
  }

  /**
   * A query's answer (as the store wrote it) in `format`. A small one is written here at once (a millisecond or two),
   * rather than waiting behind a long write; JSON-LD always goes to the thread (jsonld.js takes longer).
   */
  async result(answer: QueryText, format: ResultFormat): Promise<Buffer> {
    const data = answer.data;
    if (data.length <= smallAnswerBytes && format !== 'jsonld')
      return Buffer.from(await writeResult(readQueryText(answer), format));
    const movable =
      data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    return asBuffer(
      (await this.run(
        this.writes,
        { op: 'result', answer, format },
        'writing the results',
        movable ? [data.buffer as ArrayBuffer] : [],
      )) as Uint8Array,
    );
  }

  /** One chunk of a streamed answer written in its format; a small one here, a large one in the thread. */
  async chunk(request: ChunkRequest): Promise<Buffer> {
    const data = request.data;
    if (data.length <= smallAnswerBytes) return Buffer.from(await writeChunk(request));
    const movable =
      data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    return asBuffer(
      (await this.run(
        this.writes,
        { op: 'chunk', ...request },
        'writing the results',
        movable ? [data.buffer as ArrayBuffer] : [],
      )) as Uint8Array,
    );
  }

  /** A session's triples (N-Triples, UTF-8; moved to the thread) as lowered messages (JSON) or in an RDF format. */
  async session(triples: Uint8Array, graph: string, format: RdfFormat | 'messages'): Promise<Buffer> {
    const buffer = triples.buffer;
    const movable =
      buffer instanceof ArrayBuffer && triples.byteOffset === 0 && triples.byteLength === buffer.byteLength;
    return asBuffer(
      (await this.run(
        this.writes,
        { op: 'session', triples, graph, format },
        'writing the session',
        movable ? [buffer] : [],
      )) as Uint8Array,
    );
  }

  /** The service description of /sparql in `format` (one node per session graph: large for many sessions). */
  async describe(facts: ServiceFacts, format: DescriptionFormat): Promise<Buffer> {
    return asBuffer(
      (await this.run(this.writes, { op: 'describe', facts, format }, 'writing the service description')) as Uint8Array,
    );
  }

  /** The body of POST /convert lifted and written in its format (400 with every bad line, as the route answers). */
  async convert(request: ConvertRequest): Promise<Omit<Converted, 'body'> & { body: Buffer }> {
    const converted = (await this.run(this.writes, { op: 'convert', ...request }, 'converting the body')) as Converted;
    return { ...converted, body: asBuffer(converted.body) };
  }

  async close(): Promise<void> {
    await Promise.all([this.checks.close(), this.writes.close()]);
  }

  private run(
    thread: TaskThread<OffloadRequest, unknown>,
    request: OffloadRequest,
    doing: string,
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown> {
    const limit = this.config.queryTimeoutMs;
    return thread.run(request, {
      timeoutMs: limit,
      transfer,
      timeoutError: () =>
        McpLdError.of('service.timeout', {
          detail: `${doing} took longer than the limit of ${limit} ms (MCPLD_QUERY_TIMEOUT)`,
        }),
      crashError: (reason) =>
        McpLdError.of('service.too-demanding', { detail: `${doing} ran out of memory or of stack (${reason})` }),
    });
  }
}

/** A Buffer over the same memory (Buffer.from(a Uint8Array) would copy it). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
