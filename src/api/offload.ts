// The CPU-bound part of requests — checking a SPARQL text, writing a query's answer, writing a session as JSON messages
// or RDF, converting a body (POST /convert, which stores nothing) — runs in a worker thread (offload-thread.ts), so that a large or tricky
// request never holds up the event loop: /health and every other request keep being answered while it runs. Each task
// has the query time limit; at most 32 wait (then 429). Answers come back as Buffers over the thread's own bytes.
import { McpLdError } from '../core/problem.js';
import type { ServiceConfig } from '../core/config.js';
import { TaskThread } from '../core/task-thread.js';
import type { RdfFormat } from '../lift/formats.js';
import type { BoundedQuery, ResultFormat, SparqlLimits } from '../query/index.js';
import type { QueryText } from '../store/quad-store.js';
import type { ConvertRequest, Converted, OffloadRequest } from './offload-thread.js';

const threadUrl = new URL('./offload-thread.js', import.meta.url);

/**
 * Most tasks that wait for the thread. Most take a millisecond (a query to check), so a burst of requests waits here
 * without being refused; the bound keeps what they hold (each at most the body limit) bounded.
 */
const maxWaitingTasks = 32;

export class Offload {
  private readonly thread: TaskThread<OffloadRequest, unknown>;
  private readonly limits: SparqlLimits;

  constructor(private readonly config: ServiceConfig) {
    this.limits = { maxBytes: config.maxQueryBytes, maxDepth: config.maxQueryDepth };
    this.thread = new TaskThread(threadUrl, {
      maxWaiting: maxWaitingTasks,
      busyError: () =>
        new McpLdError({
          code: 'service.busy',
          status: 429,
          title: 'Too many requests',
          detail: `${maxWaitingTasks} requests are waiting to be parsed or written already; try again in a second`,
          retryAfter: 1,
        }),
      name: 'the thread that checks SPARQL and writes sessions',
    });
    this.thread.warm();
  }

  /** A query checked (parse-query.ts) and bounded to the result row limit (bound-rows.ts). */
  query(text: string): Promise<BoundedQuery> {
    return this.run({ op: 'query', text, limits: this.limits, maxRows: this.config.maxResultRows }, 'checking the query') as Promise<BoundedQuery>;
  }

  /** An update checked (parse-update.ts): the text the store applies. */
  update(text: string): Promise<string> {
    return this.run({ op: 'update', text, limits: this.limits }, 'checking the update') as Promise<string>;
  }

  /** A query's answer (as the store wrote it) in `format`. */
  async result(answer: QueryText, format: ResultFormat): Promise<Buffer> {
    const data = answer.data;
    const movable = data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    return asBuffer((await this.run({ op: 'result', answer, format }, 'writing the results', movable ? [data.buffer as ArrayBuffer] : [])) as Uint8Array);
  }

  /** A session's triples (N-Triples, UTF-8; moved to the thread) as lowered messages (JSON) or in an RDF format. */
  async session(triples: Uint8Array, graph: string, format: RdfFormat | 'messages'): Promise<Buffer> {
    const buffer = triples.buffer;
    const movable = buffer instanceof ArrayBuffer && triples.byteOffset === 0 && triples.byteLength === buffer.byteLength;
    return asBuffer((await this.run({ op: 'session', triples, graph, format }, 'writing the session', movable ? [buffer] : [])) as Uint8Array);
  }

  /** The body of POST /convert lifted and written in its format (400 with every bad line, as the route answers). */
  async convert(request: ConvertRequest): Promise<Omit<Converted, 'body'> & { body: Buffer }> {
    const converted = (await this.run({ op: 'convert', ...request }, 'converting the body')) as Converted;
    return { ...converted, body: asBuffer(converted.body) };
  }

  close(): Promise<void> {
    return this.thread.close();
  }

  private run(request: OffloadRequest, doing: string, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const limit = this.config.queryTimeoutMs;
    // A body to convert is as long as the body limit allows; the other texts as long as MCPLD_MAX_QUERY_BYTES.
    return this.thread.run(request, {
      timeoutMs: limit,
      transfer,
      timeoutError: () => new McpLdError({ code: 'service.timeout', status: 504, title: 'Timed out', detail: `${doing} took longer than the limit of ${limit} ms (MCPLD_QUERY_TIMEOUT)` }),
      crashError: (reason) => new McpLdError({ code: 'service.too-demanding', status: 422, title: 'Request too demanding', detail: `${doing} ran out of memory or of stack (${reason})` }),
    });
  }
}

/** A Buffer over the same memory (Buffer.from(a Uint8Array) would copy it). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
