// A worker thread that runs CPU-bound tasks for the main thread, one at a time, so that the event loop stays free.
// Each task may have a time limit; a task past it, or one that kills the thread, fails with its own error and the
// thread is replaced (on the next task). Tasks waiting for the thread are bounded: past the bound, `run` refuses.
// `serveTasks` is the other side, inside the thread. Knows nothing of what the tasks are.
import { Worker, parentPort } from 'node:worker_threads';
import { McpLdError, type ProblemDetails } from './problem.js';

interface TaskOptions {
  /** Time limit in milliseconds, from the moment the task reaches the thread. */
  timeoutMs?: number;
  /** Buffers moved to the thread with the task. */
  transfer?: ArrayBuffer[];
  /** The error of a task past its time limit. */
  timeoutError?: (ms: number) => McpLdError;
  /** The error of a task during which the thread died (`reason`: what the thread said, e.g. out of memory). */
  crashError?: (reason: string) => McpLdError;
}

interface TaskThreadOptions {
  /** Most tasks that may wait while one runs; one more is refused with `busyError`. */
  maxWaiting: number;
  /** The refusal of a task when `maxWaiting` tasks wait already. */
  busyError: () => McpLdError;
  /** Names the thread in the default errors ("the SPARQL parser"). */
  name: string;
}

/** What `serveTasks` answers: the value, with the buffers to move back. */
export interface TaskAnswer<T> {
  value: T;
  transfer?: ArrayBuffer[];
  /** The thread is not to be used again (its state is damaged): it is replaced before the next task. */
  retire?: boolean;
}

type ThreadMessage =
  | { id: number; ok: true; value: unknown; retire?: boolean }
  | { id: number; ok: false; problem?: ProblemDetails & { extra: Record<string, unknown> }; message: string };

interface Task {
  request: unknown;
  options: TaskOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class TaskThread<Request, Answer> {
  private worker: Worker | undefined;
  private readonly waiting: Task[] = [];
  private running: { id: number; task: Task; timer?: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly options: TaskThreadOptions,
  ) {}

  /** Tasks waiting for the thread (not counting the one it runs). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Starts the thread now rather than with the first task (which then does not wait for it to load). */
  warm(): void {
    if (!this.closed && !this.worker) this.spawn().unref();
  }

  run(request: Request, options: TaskOptions = {}): Promise<Answer> {
    if (this.closed)
      return Promise.reject(McpLdError.of('service.closed', { detail: `${this.options.name} was stopped` }));
    if (this.running && this.waiting.length >= this.options.maxWaiting) return Promise.reject(this.options.busyError());
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ request, options, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      task.reject(McpLdError.of('service.closed', { detail: `${this.options.name} was stopped` }));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const task = this.waiting.shift();
    if (!task) {
      this.worker?.unref();
      return;
    }
    const worker = this.worker ?? this.spawn();
    worker.ref();
    const id = this.nextId++;
    const running: { id: number; task: Task; timer?: NodeJS.Timeout } = { id, task };
    this.running = running;
    const limit = task.options.timeoutMs;
    if (limit !== undefined) {
      running.timer = setTimeout(() => {
        // A task cannot be stopped inside the thread: the thread goes, and the next task gets a new one.
        this.finish(id, () =>
          task.reject(
            task.options.timeoutError?.(limit) ??
              McpLdError.of('service.timeout', { detail: `${this.options.name} took longer than ${limit} ms` }),
          ),
        );
        this.replace();
      }, limit);
    }
    worker.postMessage({ id, request: task.request }, task.options.transfer ?? []);
  }

  /** Ends the running task `id` (when it is still the running one) with `settle`, and starts the next. */
  private finish(id: number, settle: () => void): void {
    const running = this.running;
    if (!running || running.id !== id) return;
    if (running.timer) clearTimeout(running.timer);
    this.running = undefined;
    settle();
    this.next();
  }

  private replace(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.url);
    this.worker = worker;
    const died = (reason: string) => {
      if (this.worker !== worker) return; // replaced on purpose
      this.worker = undefined;
      const running = this.running;
      if (running) {
        const { task } = running;
        this.finish(running.id, () =>
          task.reject(
            task.options.crashError?.(reason) ??
              McpLdError.of('service.failed', { detail: `${this.options.name} failed (${reason}); it was restarted` }),
          ),
        );
      }
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`it exited with code ${code}`));
    worker.on('message', (message: ThreadMessage) => {
      const running = this.running;
      if (!running || running.id !== message.id) return;
      const { task } = running;
      if (message.ok && message.retire) this.replace();
      if (message.ok) this.finish(message.id, () => task.resolve(message.value));
      else
        this.finish(message.id, () =>
          task.reject(
            message.problem
              ? Object.assign(new McpLdError(message.problem), message.problem.extra)
              : new Error(message.message),
          ),
        );
    });
    return worker;
  }
}

/** Inside the thread: answers every task with `handle`. McpLdErrors cross back whole; other errors as their message. */
export function serveTasks<Request, Answer>(
  handle: (request: Request) => TaskAnswer<Answer> | Promise<TaskAnswer<Answer>>,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread');
  port.on('message', async ({ id, request }: { id: number; request: Request }) => {
    let message: ThreadMessage;
    let transfer: ArrayBuffer[] | undefined;
    try {
      const answer = await handle(request);
      message = { id, ok: true, value: answer.value, ...(answer.retire ? { retire: true } : {}) };
      transfer = answer.transfer;
    } catch (error) {
      message =
        error instanceof McpLdError
          ? { id, ok: false, problem: problemOf(error), message: error.message }
          : { id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(message, transfer ?? []);
  });
}

const problemFields = new Set([
  'code',
  'status',
  'title',
  'detail',
  'pointer',
  'line',
  'retryAfter',
  'name',
  'message',
  'stack',
]);

/** An McpLdError as data: its problem details, and what else was put on it (an ingest's `errors`, `stored`). */
function problemOf(error: McpLdError): ProblemDetails & { extra: Record<string, unknown> } {
  const problem: ProblemDetails & { extra: Record<string, unknown> } = {
    code: error.code,
    status: error.status,
    title: error.title,
    detail: error.detail,
    extra: {},
  };
  if (error.pointer !== undefined) problem.pointer = error.pointer;
  if (error.line !== undefined) problem.line = error.line;
  if (error.retryAfter !== undefined) problem.retryAfter = error.retryAfter;
  for (const [key, value] of Object.entries(error)) if (!problemFields.has(key)) problem.extra[key] = value;
  return problem;
}
