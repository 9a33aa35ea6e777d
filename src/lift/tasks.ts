// Tasks: a request that the server runs as a task is answered by a CreateTaskResult (2025-11-25 nests the `task`;
// 2026-07-28's Tasks extension writes it flat, `resultType: "task"`), and the client then follows the task by its id
// (tasks/get, 2025-11-25's tasks/result, 2026-07-28's tasks/update and tasks/cancel, notifications/tasks). This
// module keeps what a session knows of its tasks — the request each one runs, the input requests it waits on — and
// reads task ids out of messages; the lifter writes the links.
import { isJsonObject, type JsonValue } from '../core/json.js';

export interface TaskState {
  /**
   * The method of the request the task runs (tasks/result answers like it; a completed task's result is its result).
   */
  method: string;
  /** That request's message. */
  request: string;
  /** The position in its session (capture seq, else order) of the CreateTaskResult that started the task. */
  createdAt: number;
  /** The input requests the task last asked for: the node holding its `inputRequests`, and each key's method. */
  inputs?: { holder: string; methods: Record<string, string> };
}

/** The id of the task a CreateTaskResult starts, in either form. */
export function createdTaskId(result: JsonValue | undefined): string | undefined {
  if (!isJsonObject(result)) return undefined;
  const task = isJsonObject(result['task']) ? result['task'] : result['resultType'] === 'task' ? result : undefined;
  return task !== undefined && typeof task['taskId'] === 'string' ? task['taskId'] : undefined;
}

/** The task a message's params or result is about (`taskId`), if any. */
export function taskIdOf(value: JsonValue | undefined): string | undefined {
  return isJsonObject(value) && typeof value['taskId'] === 'string' ? value['taskId'] : undefined;
}

/**
 * The task `taskId` names, for a message at `position` in its session: only a task started before it. A message about
 * a task that comes before its CreateTaskResult (a server may report a status first) is not linked, the same whether
 * the session is lifted once or ingested again.
 */
export function taskAt(
  tasks: ReadonlyMap<string, TaskState>,
  taskId: string | undefined,
  position: number,
): TaskState | undefined {
  const task = taskId === undefined ? undefined : tasks.get(taskId);
  return task !== undefined && task.createdAt < position ? task : undefined;
}

/** The methods whose params name a task (`taskId`), in every version that has tasks. */
export const taskMethods = new Set([
  'tasks/get',
  'tasks/result',
  'tasks/update',
  'tasks/cancel',
  'notifications/tasks',
  'notifications/tasks/status',
]);
