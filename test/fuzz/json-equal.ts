// How the fuzz suite compares JSON values: as JSON says them, with every key and value, in any key order. -0 equals 0
// (RFC 8785 and JSON.stringify write both as 0; mcp-ld keeps rdf:JSON literals in that canonical form).
import type { JsonValue } from '../../src/core/json.js';

/** A canonical text of a JSON value: keys sorted, numbers and strings as JSON.stringify writes them. */
export function canonical(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`)
    .join(',')}}`;
}
