// Tries each query and update on an empty Oxigraph in a thread of its own (embedded-probe-thread.ts) before the
// embedded store's worker runs it, so that a text that would kill the engine is refused (400) instead of costing the
// store a rebuild. The try has the request's time limit; the request keeps what the try left of it. A text the
// empty engine ran is not tried again (what kills it is the text: its nesting, not data, which it never has): the
// console and the answers kept per session ask the same few texts over and over, and a try costs about as much as
// running a query over one session.
import { createHash } from 'node:crypto';
import { TaskThread } from '../core/task-thread.js';
import type { ProbeAnswer, ProbeRequest } from './embedded-probe-thread.js';
import { queryTimeout, storeUnavailable, tooComplexForEngine, updateTimeout } from './store-errors.js';

const threadUrl = new URL('./embedded-probe-thread.js', import.meta.url);

/** Texts the empty engine ran that are remembered (by digest; the least recently tried goes first). */
const maxRemembered = 4096;

/** What the try of `request` depends on: the text, and how it was run. */
function tryKey(request: ProbeRequest): string {
  const how = request.op === 'update' ? 'update' : `query ${request.graphForm} ${request.dataset.kind}`;
  return createHash('sha256').update(how).update('\n').update(request.sparql).digest('base64');
}

export class EmbeddedProbe {
  private readonly thread = new TaskThread<ProbeRequest, ProbeAnswer>(threadUrl, {
    // The store bounds how many queries wait (see EmbeddedStore.query); updates wait in its write queue.
    maxWaiting: Number.MAX_SAFE_INTEGER,
    busyError: () => storeUnavailable('the probe of the embedded store is busy'),
    name: "the embedded store's probe",
  });

  private readonly ran = new Set<string>();

  /** Tries `request` within `timeoutMs` (unless its text ran before); resolves with the milliseconds left of it. */
  async try(request: ProbeRequest, timeoutMs: number): Promise<number> {
    const key = tryKey(request);
    if (this.ran.has(key)) {
      this.ran.delete(key);
      this.ran.add(key);
      return timeoutMs;
    }
    const started = performance.now();
    const kind = request.op;
    const answer = await this.thread.run(request, {
      timeoutMs,
      timeoutError: (ms) => (kind === 'query' ? queryTimeout(ms) : updateTimeout(ms, '; nothing of it was applied')),
      crashError: (reason) => tooComplexForEngine(kind, reason),
    });
    if (answer.crashed) throw tooComplexForEngine(kind, answer.reason);
    this.ran.add(key);
    if (this.ran.size > maxRemembered) this.ran.delete(this.ran.values().next().value!);
    return Math.max(1, timeoutMs - (performance.now() - started));
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
