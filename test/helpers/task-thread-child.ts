// A thread for test/core/task-thread.test.ts: tasks that answer, count, spin, fail, kill the thread or retire it.
import { McpLdError } from '../../src/core/problem.js';
import { serveTasks } from '../../src/core/task-thread.js';

export type ChildTask =
  { op: 'count' } | { op: 'spin'; ms: number } | { op: 'fail' } | { op: 'exit' } | { op: 'retire' };

/** Tasks this thread has answered: a new thread starts again at 1. */
let answered = 0;

serveTasks<ChildTask, number>((task) => {
  answered += 1;
  switch (task.op) {
    case 'count':
      return { value: answered };
    case 'spin': {
      const until = performance.now() + task.ms;
      while (performance.now() < until);
      return { value: answered };
    }
    case 'fail':
      throw Object.assign(
        new McpLdError({
          code: 'test.failed',
          status: 418,
          title: 'Failed',
          detail: 'as asked',
          line: 3,
          retryAfter: 2,
        }),
        { errors: [{ line: 3 }] },
      );
    case 'exit':
      process.exit(7);
    case 'retire':
      return { value: answered, retire: true };
  }
});
