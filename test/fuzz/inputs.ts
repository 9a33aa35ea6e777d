// Fuzz inputs: messages drawn from every protocol version's schema and from the corpus, mutated (wrong types, keys of
// any Unicode with lone surrogates and NUL, deep nesting, big sizes, numbers out of range, keys given twice, bytes that
// are not UTF-8, truncation), each with what must become of it. The oracle is computed here, independently of
// src/lift/input.ts: a fatal TextDecoder, JSON.parse, and what the generator knows it did (a key it wrote twice).
import fc from 'fast-check';
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { loadSchema, protocolVersions, type ProtocolVersion } from '../../src/schema/index.js';
import { captureFiles, ogcExamples, officialMessageExamples, trafficRecords } from '../helpers/corpus.js';
import { messageInstances } from '../helpers/message-instances.js';

interface BaseMessage {
  source: string;
  /** The protocol version whose schema the message comes from (corpus records carry theirs in the capture). */
  version?: ProtocolVersion;
  /** A JSON-RPC message, or a capture record holding one. */
  value: JsonObject;
}

let pool: BaseMessage[] | undefined;

/** Every message the fuzzer starts from: instances of every message definition of every version, the corpus. */
function baseMessages(): BaseMessage[] {
  if (pool) return pool;
  pool = [];
  for (const version of protocolVersions) {
    const index = loadSchema({ protocol: version });
    for (const message of index.messages) {
      for (const instance of messageInstances(index, message.name))
        pool.push({
          source: `${version} ${message.name} ${instance.choices.join('; ')}`,
          version,
          value: instance.message,
        });
    }
  }
  for (const file of captureFiles())
    trafficRecords(file).forEach((record, i) =>
      pool!.push({ source: `${file.split('/').pop()} record ${i + 1}`, value: record as unknown as JsonObject }),
    );
  for (const { name, msg } of [...ogcExamples(), ...officialMessageExamples()]) pool.push({ source: name, value: msg });
  return pool;
}

/** The most nesting parseInput takes (src/lift/input.ts defaultMaxDepth), restated: the oracle must not borrow it. */
const maxDepth = 128;

// ---- Values ----------------------------------------------------------------------------------------------------

const specialStrings = [
  '',
  '\u0000',
  '\ud800',
  '\udfff',
  'x\udc00',
  '\ud83d\ude00',
  '"',
  '\\',
  '\n',
  '\r\n',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\u0085',
  '\u00a0',
  '__proto__',
  'constructor',
  'toString',
  '@id',
  '@context',
  '@type',
  '@value',
  '_:b0',
  'http://x/ y',
  '<>',
  '%',
  '%ff',
  'a/b~c',
  'jsonrpc',
  'method',
  'id',
  'result',
  'error',
  'params',
  '_meta',
  'msg',
  'raw',
];
const specialChars = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '"',
  '\\',
  '\n',
  '\t',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\u007f',
  '\u0080',
  '<',
  '>',
  '%',
  '~',
  '/',
  ' ',
  'é',
  '😀',
];
const anyChar = fc.oneof(
  fc.constantFrom(...specialChars),
  // any UTF-16 code unit: lone surrogates too
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), // any code point
  fc.constantFrom('a', 'b', 'x', '1'),
);
export const anyString = fc.oneof(fc.constantFrom(...specialStrings), fc.string({ unit: anyChar, maxLength: 12 }));
const specialNumbers = [
  -0,
  0,
  1,
  -1,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  -(2 ** 63),
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  0.1,
  1e21,
  1e-7,
  123.456,
  -2.5,
];
const anyNumber = fc.oneof(
  fc.constantFrom(...specialNumbers),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** An object with these keys as own properties, as JSON.parse makes them (`__proto__` included). */
function objectOf(entries: [string, JsonValue][]): JsonObject {
  const object: JsonObject = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

export const anyJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    anyNumber,
    anyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(anyString, tie('value')), { maxLength: 4 }).map(objectOf),
  ),
})).value;

// ---- Mutations of the value -------------------------------------------------------------------------------------

type Mutation =
  | { kind: 'replace'; at: number; value: JsonValue }
  | { kind: 'add-key'; at: number; key: string; value: JsonValue }
  | { kind: 'delete'; at: number }
  | { kind: 'nest'; at: number; levels: number; inArray: boolean }
  | { kind: 'big-string'; at: number; length: number; text: string }
  | { kind: 'big-array'; at: number; length: number };

const at = fc.nat();
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: anyJson }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('add-key' as const), at, key: anyString, value: anyJson }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), at }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('nest' as const),
      at,
      levels: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 115, max: 140 })),
      inArray: fc.boolean(),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('big-string' as const),
      at,
      length: fc.integer({ min: 1000, max: 100_000 }),
      text: fc.oneof(
        fc.constant('a'),
        anyString.filter((s) => s.length > 0),
      ),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('big-array' as const), at, length: fc.integer({ min: 100, max: 5000 }) }),
    weight: 1,
  },
);

type Path = (string | number)[];

/** Every path to a value in `value` (the root first), in a fixed order. */
function pathsOf(value: JsonValue): Path[] {
  const paths: Path[] = [];
  const stack: [JsonValue, Path][] = [[value, []]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    paths.push(path);
    if (Array.isArray(current)) current.forEach((child, i) => stack.push([child, [...path, i]]));
    else if (isJsonObject(current)) for (const key of Object.keys(current)) stack.push([current[key]!, [...path, key]]);
  }
  return paths;
}

function getAt(value: JsonValue, path: Path): JsonValue {
  let current = value;
  for (const token of path) current = (current as Record<string | number, JsonValue>)[token]!;
  return current;
}

/** `root` with the value at `path` replaced (the root itself when `path` is empty). */
function setAt(root: JsonValue, path: Path, value: JsonValue): JsonValue {
  if (path.length === 0) return value;
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, JsonValue>;
  Object.defineProperty(parent, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
  return root;
}

function nested(value: JsonValue, levels: number, inArray: boolean): JsonValue {
  let current = value;
  for (let i = 0; i < levels; i++) current = inArray ? [current] : { n: current };
  return current;
}

function applyMutation(root: JsonValue, m: Mutation): JsonValue {
  // Replacing the root makes anything but a message: only adding to it or deleting from it keeps it one.
  const paths =
    m.kind === 'add-key' || m.kind === 'delete' || pathsOf(root).length === 1 ? pathsOf(root) : pathsOf(root).slice(1);
  const path = paths[m.at % paths.length]!;
  const target = getAt(root, path);
  switch (m.kind) {
    case 'replace':
      return setAt(root, path, m.value);
    case 'add-key':
      return isJsonObject(target) ? (setAt(target, [m.key], m.value), root) : root;
    case 'delete': {
      if (path.length === 0) return root;
      const parent = getAt(root, path.slice(0, -1));
      if (Array.isArray(parent)) parent.splice(path.at(-1) as number, 1);
      else delete (parent as JsonObject)[path.at(-1) as string];
      return root;
    }
    case 'nest':
      return setAt(root, path, nested(target, m.levels, m.inArray));
    case 'big-string':
      return setAt(root, path, m.text.repeat(Math.ceil(m.length / m.text.length)).slice(0, m.length));
    case 'big-array':
      return setAt(
        root,
        path,
        Array.from({ length: m.length }, (_, i) => (i % 3 === 0 ? i : i % 3 === 1 ? `item ${i}` : { i })),
      );
  }
}

// ---- Faults in the text and the bytes --------------------------------------------------------------------------

type Fault =
  | { kind: 'duplicate-key'; at: number; which: number; escaped: boolean; value: JsonValue }
  | { kind: 'number-text'; at: number; text: string }
  | { kind: 'invalid-utf8'; at: number; bytes: number[] }
  | { kind: 'truncate'; at: number }
  | { kind: 'flip-byte'; at: number; byte: number };

/** Number texts past a double (refused), and ones JSON.parse reads as some double (kept as that double). */
const hugeNumberTexts = ['1e400', '-1e400', '1E999', '-2e308', '1.8e308'];
const otherNumberTexts = [
  '-0',
  '-0.0',
  '0e0',
  '18446744073709551616',
  '-9223372036854775809',
  '1e-400',
  '4.9e-324',
  '1.0',
  '1E+2',
  '100000000000000000000000',
  '0.30000000000000004',
  '1.7976931348623157e308',
];
const invalidSequences = [
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xc1, 0xbf],
  [0xc3, 0x28],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xe2, 0x82],
  [0xf0, 0x8f, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5],
  [0xfe],
  [0xff],
  [0xf0, 0x9f, 0x98],
];

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({
    kind: fc.constant('duplicate-key' as const),
    at,
    which: fc.nat(),
    escaped: fc.boolean(),
    value: anyJson,
  }),
  fc.record({
    kind: fc.constant('number-text' as const),
    at,
    text: fc.constantFrom(...hugeNumberTexts, ...otherNumberTexts),
  }),
  fc.record({ kind: fc.constant('invalid-utf8' as const), at, bytes: fc.constantFrom(...invalidSequences) }),
  fc.record({ kind: fc.constant('truncate' as const), at }),
  // Any byte but a line break (which would make two lines of one).
  fc.record({
    kind: fc.constant('flip-byte' as const),
    at,
    byte: fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a && b !== 0x0d),
  }),
);

const dupSentinel = '\u0000fuzz-duplicate\u0000';
const numberSentinel = '\u0000fuzz-number\u0000';

/** A key written with every UTF-16 code unit escaped: the same key, spelled differently. */
function escapedKey(key: string): string {
  let text = '"';
  for (let i = 0; i < key.length; i++) text += `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return text + '"';
}

// ---- Inputs ----------------------------------------------------------------------------------------------------

type Shape = 'line' | 'pretty' | 'batch';

interface Expectation {
  /** The codes one of which it must be refused with; undefined when it may be accepted. */
  refused?: string[];
  /** What JSON.parse gives for it: what lowering must give back when it is accepted. */
  value?: JsonValue;
  /** Blank: readers skip it (a line) or call it empty (a whole input). */
  blank?: boolean;
}

export interface FuzzInput {
  bytes: Buffer;
  /** Whether the generator wrote a key twice in one object. */
  duplicated: boolean;
  version?: ProtocolVersion;
  /** What was done, for the report of a failure. */
  story: string;
}

function decodes(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The nesting of a value (a scalar 0, `{}` 1) and whether it holds a number past a double. */
function measure(value: JsonValue): { depth: number; nonFinite: boolean } {
  let depth = 0;
  let nonFinite = false;
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, level] = stack.pop()!;
    if (typeof current === 'number' && !Number.isFinite(current)) nonFinite = true;
    if (current === null || typeof current !== 'object') continue;
    depth = Math.max(depth, level + 1);
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, level + 1]);
  }
  return { depth, nonFinite };
}

/**
 * What must become of an input: as a whole input (where a JSON array is a batch, whose array the depth limit does not
 * count), or as one line of JSONL.
 */
export function expectation({ bytes, duplicated }: FuzzInput, as: 'whole' | 'line'): Expectation {
  const text = decodes(bytes);
  if (text === undefined) return { refused: ['input.invalid-utf8'] };
  if (text.trim() === '') return { refused: ['input.empty'], blank: true };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return { refused: ['input.malformed-json', 'input.empty'] };
  }
  const { depth, nonFinite } = measure(value);
  const refused: string[] = [];
  if (duplicated) refused.push('input.duplicate-key');
  if (nonFinite) refused.push('input.number-out-of-range');
  if (depth > maxDepth + (as === 'whole' && Array.isArray(value) ? 1 : 0)) refused.push('input.too-deep');
  return refused.length > 0 ? { refused, value } : { value };
}

interface InputSpec {
  base: number[];
  mutations: Mutation[];
  fault: Fault | null;
  shape: Shape;
}

function build(spec: InputSpec): FuzzInput {
  const messages = baseMessages();
  const bases = spec.base.map((i) => messages[i % messages.length]!);
  const story: string[] = [`from ${bases.map((b) => b.source).join(' + ')} as ${spec.shape}`];
  let value: JsonValue = JSON.parse(
    JSON.stringify(spec.shape === 'batch' ? bases.map((b) => b.value) : bases[0]!.value),
  ) as JsonValue;
  for (const m of spec.mutations) {
    value = applyMutation(value, m);
    story.push(`${m.kind} at ${m.at}`);
  }
  const f = spec.fault;
  let dupKey: string | undefined;
  let dupValue: JsonValue = null;
  if (f?.kind === 'duplicate-key') {
    const objects = pathsOf(value).filter((p) => {
      const target = getAt(value, p);
      return isJsonObject(target) && Object.keys(target).length > 0;
    });
    if (objects.length > 0) {
      const target = getAt(value, objects[f.at % objects.length]!) as JsonObject;
      const keys = Object.keys(target);
      dupKey = keys[f.which % keys.length]!;
      dupValue = f.value;
      setAt(target, [dupSentinel], 0);
    }
  }
  let numberText: string | undefined;
  if (f?.kind === 'number-text') {
    const leaves = pathsOf(value).filter((p) => p.length > 0);
    if (leaves.length > 0) {
      value = setAt(value, leaves[f.at % leaves.length]!, numberSentinel);
      numberText = f.text;
    }
  }
  let text = spec.shape === 'pretty' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  if (dupKey !== undefined) {
    const token = JSON.stringify(dupSentinel);
    const start = text.indexOf(token);
    const colon = /^:\s*0/.exec(text.slice(start + token.length));
    if (start < 0 || !colon) throw new Error('fuzz: the duplicate-key sentinel was not found in the text');
    const key = f?.kind === 'duplicate-key' && f.escaped ? escapedKey(dupKey) : JSON.stringify(dupKey);
    text = `${text.slice(0, start)}${key}:${JSON.stringify(dupValue)}${text.slice(start + token.length + colon[0].length)}`;
    story.push(`key ${JSON.stringify(dupKey)} given twice`);
  }
  if (numberText !== undefined) {
    text = text.replace(JSON.stringify(numberSentinel), numberText);
    story.push(`number ${numberText}`);
  }
  let bytes = Buffer.from(text, 'utf8');
  if (f?.kind === 'invalid-utf8') {
    const offset = f.at % (bytes.length + 1);
    bytes = Buffer.concat([bytes.subarray(0, offset), Buffer.from(f.bytes), bytes.subarray(offset)]);
    story.push(`bytes ${Buffer.from(f.bytes).toString('hex')} at ${offset}`);
  } else if (f?.kind === 'truncate' && bytes.length > 1) {
    const cut = 1 + (f.at % (bytes.length - 1));
    bytes = bytes.subarray(0, cut);
    story.push(`cut at ${cut}`);
  } else if (f?.kind === 'flip-byte') {
    const offset = f.at % bytes.length;
    bytes = Buffer.from(bytes);
    bytes[offset] = f.byte;
    story.push(`byte ${offset} = 0x${f.byte.toString(16)}`);
  }
  const version = bases[0]!.version;
  return { bytes, duplicated: dupKey !== undefined, ...(version ? { version } : {}), story: story.join(', ') };
}

/** A generated input of the given shapes: one message on a line, pretty-printed over lines, or a batch. */
export function fuzzInput(shapes: Shape[] = ['line']): fc.Arbitrary<FuzzInput> {
  return fc
    .record({
      shape: fc.constantFrom(...shapes),
      base: fc.array(fc.nat({ max: baseMessages().length - 1 }), { minLength: 1, maxLength: 3 }),
      mutations: fc.array(mutation, { maxLength: 3 }),
      fault: fc.option(fault, { freq: 2 }),
    })
    .map((spec) => build(spec.shape === 'batch' ? spec : { ...spec, base: spec.base.slice(0, 1) }));
}

/** Several one-line inputs behind a valid first line (which keeps an input JSONL): one body of NDJSON. */
export function fuzzLines(maxLines: number): fc.Arbitrary<FuzzInput[]> {
  return fc.array(fuzzInput(['line']), { minLength: 1, maxLength: maxLines });
}

const firstLine = '{"jsonrpc":"2.0","id":"fuzz-first","method":"ping"}';

export function linesBody(inputs: FuzzInput[]): Buffer {
  return Buffer.concat([
    Buffer.from(firstLine),
    ...inputs.flatMap((input) => [Buffer.from('\n'), input.bytes]),
    Buffer.from('\n'),
  ]);
}

/** Whether a line is blank as the readers see it (they skip such lines). */
export function isBlankLine(bytes: Buffer): boolean {
  const text = decodes(bytes);
  return text !== undefined && text.trim() === '';
}
