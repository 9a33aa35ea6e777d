import assert from 'node:assert/strict';
import { McpLdError } from '../../src/core/problem.js';
import { TaskThread } from '../../src/core/task-thread.js';
import type { ChildTask } from '../helpers/task-thread-child.js';
import { rejectedError } from '../helpers/mcp-ld-error.js';

const childUrl = new URL('../helpers/task-thread-child.js', import.meta.url);
const busy = () => new McpLdError({ code: 'test.busy', status: 429, title: 'Busy', detail: 'busy', retryAfter: 1 });

const refusal = (promise: Promise<unknown>) => rejectedError(promise);

describe('core: a thread for CPU-bound tasks', () => {
  let thread: TaskThread<ChildTask, number>;
  beforeEach(() => (thread = new TaskThread(childUrl, { maxWaiting: 1, busyError: busy, name: 'the test thread' })));
  afterEach(() => thread.close());

  it('runs tasks one after the other in one thread; an McpLdError comes back whole, with what was put on it', async () => {
    assert.deepEqual(await Promise.all([thread.run({ op: 'count' }), thread.run({ op: 'count' })]), [1, 2]);
    const error = await refusal(thread.run({ op: 'fail' }));
    assert.deepEqual(
      [error.code, error.status, error.detail, error.line, error.retryAfter],
      ['test.failed', 418, 'as asked', 3, 2],
    );
    assert.deepEqual((error as McpLdError & { errors?: unknown }).errors, [{ line: 3 }]);
    assert.equal(await thread.run({ op: 'count' }), 4, 'the thread lives on');
  });

  it('fails a task past its time limit with its timeout error, and runs the next one in a new thread', async () => {
    await thread.run({ op: 'count' });
    const started = performance.now();
    const timeoutError = (ms: number) =>
      new McpLdError({ code: 'test.timeout', status: 504, title: 'Timed out', detail: `${ms} ms` });
    const error = await refusal(thread.run({ op: 'spin', ms: 60_000 }, { timeoutMs: 200, timeoutError }));
    assert.equal(error.code, 'test.timeout');
    assert.ok(performance.now() - started < 5000);
    assert.equal(await thread.run({ op: 'count' }), 1);
  });

  it('fails a task that kills its thread with its crash error, and runs the next one in a new thread', async () => {
    await thread.run({ op: 'count' });
    const crashError = (reason: string) =>
      new McpLdError({ code: 'test.crashed', status: 422, title: 'Crashed', detail: reason });
    const error = await refusal(thread.run({ op: 'exit' }, { crashError }));
    assert.equal(error.code, 'test.crashed');
    assert.match(error.detail, /code 7/);
    assert.equal(await thread.run({ op: 'count' }), 1);
  });

  it('replaces a thread that retires with its answer', async () => {
    assert.equal(await thread.run({ op: 'retire' }), 1);
    assert.equal(await thread.run({ op: 'count' }), 1);
  });

  it('refuses a task at once with the busy error when one runs and maxWaiting wait', async () => {
    const running = thread.run({ op: 'spin', ms: 500 });
    const waiting = thread.run({ op: 'count' });
    const started = performance.now();
    assert.equal((await refusal(thread.run({ op: 'count' }))).code, 'test.busy');
    assert.ok(performance.now() - started < 100);
    assert.deepEqual(await Promise.all([running, waiting]), [1, 2]);
  });
});
