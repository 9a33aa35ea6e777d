// The thread where the embedded store checks a large batch (UTF-8, then N-Quads: checkBatchBytes) before
// writing it: the bytes are shared, not copied, and the check's cost (about 5 ms per MiB) stays off the event loop.
import { serveTasks } from '../core/task-thread.js';
import { checkBatchBytes, type CheckedBatch } from './nquads-check.js';

serveTasks<Uint8Array, CheckedBatch>((data) => ({ value: checkBatchBytes(data) }));
