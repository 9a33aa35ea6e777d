// JSON value types, JSON-pointer helpers and canonical JSON (RFC 8785), shared by every stage.

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escapes one reference token of a JSON pointer (RFC 6901). */
function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(base: string, ...tokens: string[]): string {
  return base + tokens.map((token) => '/' + escapePointerToken(token)).join('');
}

export function splitPointer(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return [];
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (!body.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return body.slice(1).split('/').map(unescapePointerToken);
}

/** The value at `pointer` in `document`, or undefined when the pointer leads nowhere. */
export function getAtPointer(document: JsonValue, pointer: string): JsonValue | undefined {
  let current: JsonValue | undefined = document;
  for (const token of splitPointer(pointer)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isJsonObject(current))
      current = Object.prototype.hasOwnProperty.call(current, token) ? current[token] : undefined;
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/** A deep copy of a JSON value (documents loaded from YAML are plain data). */
export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

interface JsonInspection {
  /** What makes the value one that cannot be kept exactly: nesting deeper than the limit, or a number past the
   *  range of a double (`1e400`, which JSON.parse reads as Infinity). */
  broken?: 'depth' | 'number';
  /** How many keys its objects have in all (compared with the keys of its text, it shows a key JSON.parse dropped). */
  keys: number;
}

/**
 * What a parsed JSON value is made of that matters for keeping it exactly: one depth-first walk, recursive (it stops
 * below `limit` levels, so the stack stays shallow). Every input line is walked, most of them once in a process that
 * lives for one file (`mcp-ld convert`), so the walk is one small function with nothing allocated: it counts in a
 * number and says what broke with a negative one.
 */
export function inspectJson(value: JsonValue, limit: number): JsonInspection {
  if (typeof value === 'number') return Number.isFinite(value) ? { keys: 0 } : { broken: 'number', keys: 0 };
  const walked = value !== null && typeof value === 'object' ? walkJson(value, 1, limit) : 0;
  if (walked === tooDeep) return { broken: 'depth', keys: 0 };
  if (walked === notFinite) return { broken: 'number', keys: 0 };
  return { keys: walked };
}

/** What walkJson returns when the value nests past the limit, or holds a number past a double. */
const tooDeep = -1;
const notFinite = -2;

/**
 * The keys of the objects within an object or array at `depth`, or tooDeep or notFinite. The array and object loops
 * each handle their children in place: a helper per child, shared by both, made the cold first pass twice as slow
 * (31 against 17 ms on the 30,000-message workload).
 */
function walkJson(current: JsonObject | JsonValue[], depth: number, limit: number): number {
  if (depth > limit) return tooDeep;
  let keys = 0;
  if (Array.isArray(current)) {
    for (let i = 0; i < current.length; i++) {
      const child = current[i]!;
      if (child !== null && typeof child === 'object') {
        const inner = walkJson(child, depth + 1, limit);
        if (inner < 0) return inner;
        keys += inner;
      } else if (typeof child === 'number' && !Number.isFinite(child)) return notFinite;
    }
    return keys;
  }
  for (const key in current) {
    keys += 1;
    const child = current[key]!;
    if (child !== null && typeof child === 'object') {
      const inner = walkJson(child, depth + 1, limit);
      if (inner < 0) return inner;
      keys += inner;
    } else if (typeof child === 'number' && !Number.isFinite(child)) return notFinite;
  }
  return keys;
}

/** Canonical JSON (RFC 8785 JCS): keys sorted by UTF-16 code units, ECMAScript number and string forms. */
export function canonicalJson(value: JsonValue): string {
  // Most values already have their keys in order: JSON.stringify then writes the canonical form in one native call.
  if (hasSortedKeys(value)) return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`).join(',')}}`;
}

/** Whether every object within `value` lists its keys in code-unit order (as JCS sorts them). */
function hasSortedKeys(value: JsonValue): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!hasSortedKeys(item)) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!hasSortedKeys(value[key]!)) return false;
    previous = key;
  }
  return true;
}
