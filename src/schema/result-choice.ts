// Which of the results a request may get a response carries, where a protocol version allows more than one:
// 2026-07-28's `resultType: "input_required"` marks an InputRequiredResult, and 2025-11-25's task-augmented request
// (and 2026-07-28's tools/call under the Tasks extension) is answered by a CreateTaskResult. What the specifications
// say tells them apart; nothing else.
import { isJsonObject, type JsonValue } from '../core/json.js';

const markers: Record<string, (result: Record<string, JsonValue>) => boolean> = {
  InputRequiredResult: (result) => result['resultType'] === 'input_required',
  // 2025-11-25 nests the task; the 2026-07-28 Tasks extension writes it flat, marked `resultType: "task"`.
  CreateTaskResult: (result) =>
    result['resultType'] === 'task' || (isJsonObject(result['task']) && !('content' in result)),
};

/**
 * The alternative `result` is, among a request's `alternatives` (in the schema's order); undefined: its paired result.
 */
export function chooseResult(
  alternatives: readonly string[] | undefined,
  result: JsonValue | undefined,
): string | undefined {
  if (alternatives === undefined || !isJsonObject(result)) return undefined;
  return alternatives.find((name) => markers[name]?.(result) === true);
}
