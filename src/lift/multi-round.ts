// Multi-round-trip requests (2026-07-28, "MRTR"): a server answers a request with an InputRequiredResult (`resultType:
// "input_required"`, `inputRequests` keyed by names it chooses, maybe a `requestState`), and the client sends the same
// request again on a new id, with `inputResponses` for those keys and the `requestState` echoed. This module keeps a
// session's rounds still waiting for their retry and finds the round a retry answers; the lifter writes the links.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { canonicalJson } from '../rdf/literals.js';

/** A round whose InputRequiredResult waits for the client's retry. */
interface OpenRound {
  /** The InputRequiredResult message. */
  result: string;
  /** The operation the round belongs to, and the round's number in it (from 1). */
  operation: string;
  round: number;
  /** The method and target the retry must repeat (see `retryTarget`). */
  target: string;
  /** The keys of its `inputRequests`, and the method each embedded request has. */
  keys: string[];
  methods: Record<string, string>;
  requestState?: string;
  /** When the operation's first request was captured (ms since the epoch). */
  start?: number;
}

/** What a retry must repeat: the method, and what it acts on (tool or prompt with its arguments, resource URI). */
export function retryTarget(method: string, params: JsonValue | undefined): string {
  if (!isJsonObject(params)) return method;
  const on =
    typeof params['name'] === 'string' ? params['name'] : typeof params['uri'] === 'string' ? params['uri'] : '';
  const args = isJsonObject(params['arguments']) ? canonicalJson(params['arguments']) : '';
  return `${method} ${on} ${args}`;
}

/** Whether a request carries the answer to a round: `inputResponses` or an echoed `requestState`. */
export function isRetry(params: JsonValue | undefined): params is JsonObject {
  return isJsonObject(params) && (isJsonObject(params['inputResponses']) || typeof params['requestState'] === 'string');
}

export class OpenRounds {
  private readonly rounds: OpenRound[] = [];

  add(round: OpenRound): void {
    this.rounds.push(round);
  }

  /**
   * The round `params` (a retry of `method`) answers, taken out of the open rounds: the latest with the same target
   * whose requestState it echoes (when the round has one) and whose input keys it answers.
   */
  take(method: string, params: JsonObject): OpenRound | undefined {
    const target = retryTarget(method, params);
    const responses = isJsonObject(params['inputResponses']) ? Object.keys(params['inputResponses']) : [];
    const state = typeof params['requestState'] === 'string' ? params['requestState'] : undefined;
    for (let i = this.rounds.length - 1; i >= 0; i--) {
      const round = this.rounds[i]!;
      if (round.target !== target || round.requestState !== state) continue;
      if (!responses.every((key) => round.keys.includes(key))) continue;
      this.rounds.splice(i, 1);
      return round;
    }
    return undefined;
  }
}
