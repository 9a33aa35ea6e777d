// The main thread's handle on the Oxigraph worker thread: two FIFOs of requests — users' queries, and everything else
// (writes, rebuilds, reads of graphs) — served in turn, one request in flight at a time, each with an optional time
// limit. So a queue of slow queries delays a write by one query at most, and writes in bulk cannot shut queries out.
// Oxigraph's query() cannot be interrupted, so a request over its limit terminates the worker; a fresh one is then
// rebuilt from the caller's truth (journal or memory copy) before the next request runs.
import { Worker } from 'node:worker_threads';
import type { McpLdError } from '../core/problem.js';
import type { EngineRequest, ThreadResponse } from './embedded-protocol.js';
import { queryTimeout, storeClosed, storeUnavailable } from './store-errors.js';

/** Sends a request straight to the worker, moving `transfer` to it. */
type Load = (request: EngineRequest, transfer?: ArrayBuffer[]) => Promise<unknown>;

/** Loads the truth into a fresh worker: every write up to and including sequence number `upTo`. */
export type Replay = (load: Load, upTo: number) => Promise<void>;

interface RunOptions {
  /** Time limit in milliseconds, from the moment the request reaches the worker. */
  timeoutMs?: number;
  /** The write's sequence number: once it succeeds, a rebuild replays up to it. */
  seq?: number;
  /** The error a request past its time limit fails with (default: the query timeout). */
  timeoutError?: (ms: number) => McpLdError;
  /** The error a request fails with when the worker dies running it (default: store.unavailable, 503). */
  crashError?: (reason: string) => McpLdError;
  /** `queries`: a user's query, which waits in the queries' FIFO; everything else waits in the other, in order. */
  lane?: 'queries' | 'store';
}

interface EngineStats {
  /** Workers rebuilt after a timeout or a failure. */
  restarts: number;
  /** Milliseconds the last rebuild took (new worker + replay). */
  lastRestartMs: number;
}

interface Task {
  /** The request, or `restart` to rebuild the worker at this point of the queue. */
  request: EngineRequest | 'restart';
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface InFlight {
  id: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const workerUrl = new URL('./embedded-thread.js', import.meta.url);

class EngineCrash extends Error {}

/** A request the worker died running (not a query: those say what the query did, see embedded-store.ts). */
function workerCrashed(reason: string): McpLdError {
  return storeUnavailable(
    `the embedded store's worker failed (${reason}); it was rebuilt from the store's journal, and nothing acknowledged was lost: try again`,
    1,
  );
}

export class EmbeddedEngine {
  /** Sequence number of the last write the current worker has applied. */
  appliedSeq = 0;
  readonly stats: EngineStats = { restarts: 0, lastRestartMs: 0 };
  /**
   * Goes up when a worker replacement starts (stats.restarts counts finished ones): a write whose generation at the
   * time it was applied differs by the time it is journaled may be missing from a worker replayed in between.
   */
  generation = 0;
  private worker: Worker | undefined;
  private inFlight: InFlight | undefined;
  private nextId = 1;
  /** Writes, rebuilds and the store's own reads, in order. */
  private readonly queue: Task[] = [];
  /** Users' queries, in order. */
  private readonly queries: Task[] = [];
  /** Which FIFO the last request came from, so that the other goes next when both wait. */
  private lastLane: 'queries' | 'store' = 'store';
  /** When the request in flight reaches its time limit (performance.now()), if it has one. */
  private deadline: number | undefined;
  private draining = false;
  private broken: McpLdError | undefined;
  private closed = false;

  private constructor(private readonly replay: Replay) {}

  /** Starts a worker and replays the truth up to `lastSeq` into it. */
  static async start(replay: Replay, lastSeq: number): Promise<EmbeddedEngine> {
    const engine = new EmbeddedEngine(replay);
    try {
      await engine.spawn();
      await replay((request, transfer) => engine.post(request, transfer), lastSeq);
    } catch (error) {
      await engine.worker?.terminate();
      throw error;
    }
    engine.appliedSeq = lastSeq;
    engine.idle();
    return engine;
  }

  /** Queues a request; resolves with the worker's answer. */
  run<T>(request: EngineRequest, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(storeClosed());
    return new Promise<T>((resolve, reject) => {
      (options.lane === 'queries' ? this.queries : this.queue).push({
        request,
        options,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      void this.drain();
    });
  }

  /** Milliseconds until the request in flight reaches its time limit (0 when none runs or it has no limit). */
  busyForMs(): number {
    return this.deadline === undefined ? 0 : Math.max(0, this.deadline - performance.now());
  }

  /** The next request: from the other FIFO than the last one when both wait. */
  private take(): Task | undefined {
    const preferQueries = this.lastLane === 'store';
    const lane = this.queries.length > 0 && (preferQueries || this.queue.length === 0) ? 'queries' : 'store';
    const task = lane === 'queries' ? this.queries.shift() : this.queue.shift();
    if (task) this.lastLane = lane;
    return task;
  }

  /** Rebuilds the worker from the truth now (after a write whose effect on the worker is unknown). */
  rebuild(): Promise<void> {
    if (this.closed) return Promise.reject(storeClosed());
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ request: 'restart', options: {}, resolve: () => resolve(), reject });
      void this.drain();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    while (this.draining) await new Promise((resolve) => setTimeout(resolve, 5));
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    this.worker?.ref();
    try {
      for (let task = this.take(); task; task = this.take()) {
        if (task.request === 'restart') {
          await this.restart();
          if (this.broken) task.reject(this.broken);
          else task.resolve(undefined);
          continue;
        }
        if (this.broken) {
          task.reject(this.broken);
          continue;
        }
        let timer: NodeJS.Timeout | undefined;
        try {
          const answer = this.post(task.request);
          const limit = task.options.timeoutMs;
          this.deadline = limit === undefined ? undefined : performance.now() + limit;
          const value =
            limit === undefined
              ? await answer
              : await Promise.race([
                  answer,
                  new Promise<never>(
                    (_, reject) =>
                      (timer = setTimeout(() => reject((task.options.timeoutError ?? queryTimeout)(limit)), limit)),
                  ),
                ]);
          if (task.options.seq !== undefined) this.appliedSeq = task.options.seq;
          task.resolve(value);
        } catch (error) {
          task.reject(error instanceof EngineCrash ? (task.options.crashError ?? workerCrashed)(error.message) : error);
          // A timed-out or crashed worker is replaced: the running query cannot be stopped any other way.
          if (!(error instanceof WorkerError)) await this.restart();
        } finally {
          if (timer) clearTimeout(timer);
          this.deadline = undefined;
        }
      }
    } finally {
      this.draining = false;
      this.idle();
    }
  }

  /** The worker now (a method, so that TypeScript does not narrow it across awaits). */
  private current(): Worker | undefined {
    return this.worker;
  }

  private idle(): void {
    if (this.queue.length === 0 && this.queries.length === 0) this.worker?.unref();
  }

  private async restart(): Promise<void> {
    this.generation += 1;
    const started = performance.now();
    const old = this.worker;
    this.worker = undefined;
    this.inFlight?.reject(new EngineCrash('terminated'));
    this.inFlight = undefined;
    await old?.terminate();
    try {
      await this.spawn();
      await this.replay((request, transfer) => this.post(request, transfer), this.appliedSeq);
      this.current()?.ref();
    } catch (error) {
      this.broken = storeUnavailable(`the embedded store could not be rebuilt: ${(error as Error).message}`);
      await this.current()?.terminate();
      this.worker = undefined;
    }
    this.stats.restarts += 1;
    this.stats.lastRestartMs = Math.round(performance.now() - started);
  }

  private spawn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(workerUrl);
      this.worker = worker;
      const fail = (error: Error) => {
        reject(error);
        if (this.worker !== worker) return; // an old worker, terminated on purpose
        this.worker = undefined;
        if (this.inFlight) {
          const inFlight = this.inFlight;
          this.inFlight = undefined;
          inFlight.reject(new EngineCrash(error.message));
        }
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
      worker.on('message', (response: ThreadResponse) => {
        if (response.id === 0) {
          resolve();
          return;
        }
        const inFlight = this.inFlight;
        if (!inFlight || inFlight.id !== response.id) return;
        this.inFlight = undefined;
        if (response.ok) inFlight.resolve(response.value);
        else inFlight.reject(response.fatal ? new EngineCrash(response.message) : new WorkerError(response.message));
      });
    });
  }

  /** Sends one request straight to the worker (the queue guarantees one at a time). */
  private post(request: EngineRequest, transfer?: ArrayBuffer[]): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new EngineCrash('no worker'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.inFlight = { id, resolve, reject };
      worker.postMessage({ ...request, id }, transfer);
    });
  }
}

/** An error the store reported for one request (a syntax error, an unsupported feature); the worker stays usable. */
export class WorkerError extends Error {}
