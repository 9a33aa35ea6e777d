// Tries each query and update on an empty Oxigraph in a thread of its own (embedded-probe-thread.ts) before the
// embedded store's worker runs it, so that a text that would kill the engine is refused (400) instead of costing the
// store a rebuild. The try has the request's time limit; the request keeps what the try left of it.
import { TaskThread } from '../core/task-thread.js';
import type { ProbeAnswer, ProbeRequest } from './embedded-probe-thread.js';
import { queryTimeout, storeUnavailable, tooComplexForEngine, updateTimeout } from './store-errors.js';

const threadUrl = new URL('./embedded-probe-thread.js', import.meta.url);

export class EmbeddedProbe {
  private readonly thread = new TaskThread<ProbeRequest, ProbeAnswer>(threadUrl, {
    // The store bounds how many queries wait (see EmbeddedStore.query); updates wait in its write queue.
    maxWaiting: Number.MAX_SAFE_INTEGER,
    busyError: () => storeUnavailable('the probe of the embedded store is busy'),
    name: "the embedded store's probe",
  });

  /** Tries `request` within `timeoutMs`; resolves with the milliseconds left of it. */
  async try(request: ProbeRequest, timeoutMs: number): Promise<number> {
    const started = performance.now();
    const kind = request.op;
    const answer = await this.thread.run(request, {
      timeoutMs,
      timeoutError: (ms) => (kind === 'query' ? queryTimeout(ms) : updateTimeout(ms, '; nothing of it was applied')),
      crashError: (reason) => tooComplexForEngine(kind, reason),
    });
    if (answer.crashed) throw tooComplexForEngine(kind, answer.reason);
    return Math.max(1, timeoutMs - (performance.now() - started));
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
