// Where a server names itself, read once for the lifter (which names a session's server from it) and the recorder
// (which must know whether the lifter will, or give a name of its own): initialize's `serverInfo`, and the
// `_meta` key of 2026-07-28's results.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';

/** Where a 2026-07-28 result's `_meta` names the server. */
export const serverInfoKey = 'io.modelcontextprotocol/serverInfo';

/** The name an Implementation object (serverInfo, clientInfo) gives, if it gives one ('' included). */
export function implementationName(info: JsonValue | undefined): string | undefined {
  return isJsonObject(info) && typeof info['name'] === 'string' ? info['name'] : undefined;
}

/** The server's Implementation in a result: its `serverInfo` (initialize), else its `_meta`'s (2026-07-28). */
export function serverInfoOf(result: JsonObject, from: 'serverInfo' | '_meta'): JsonValue | undefined {
  if (from === 'serverInfo') return result['serverInfo'];
  const meta = result['_meta'];
  return isJsonObject(meta) ? meta[serverInfoKey] : undefined;
}
