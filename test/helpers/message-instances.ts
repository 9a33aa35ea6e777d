// Generates example messages from the effective schema: for a message definition, instances in which every
// declared property carries a value valid for its JSON type, `const`, `enum` and `format` (nested ones too), and
// one instance per alternative of every `anyOf`/`oneOf` met on the way (a result's JSON-RPC error branch too).
// Reads the schema on its own (it shares no code with src/context), so tests can judge the contexts by it.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../../src/core/json.js';
import {
  documentUris,
  type DocumentId,
  type MessageKind,
  type SchemaIndex,
  type SchemaLocation,
} from '../../src/schema/index.js';

interface MessageInstance {
  definition: string;
  kind: MessageKind;
  /** The alternative this instance takes at each `anyOf`/`oneOf` it meets, as `<JSON path>: <alternative>`. */
  choices: string[];
  message: JsonObject;
}

/** Sample values by string `format`. */
const formatSamples: Record<string, string> = {
  uri: 'https://example.org/resource/1',
  'uri-reference': 'https://example.org/resource/1',
  'uri-template': 'file:///{path}',
  byte: 'aGVsbG8gd29ybGQ=',
  'date-time': '2025-01-12T15:00:58Z',
  date: '2025-01-12',
  email: 'user@example.org',
};

const maxDepth = 32;
const maxInstances = 500;

interface Met {
  count: number;
  labels: string[];
}

interface Run {
  decisions: ReadonlyMap<string, number>;
  met: Map<string, Met>;
  choices: string[];
}

function label(alternative: JsonObject, index: number): string {
  const ref = alternative['$ref'];
  if (typeof ref === 'string') return ref.slice(Math.max(ref.lastIndexOf('/'), ref.lastIndexOf('#')) + 1);
  const required = alternative['required'];
  if (Array.isArray(required) && required.length > 0) return `{${required.join(',')}}`;
  return `#${index}`;
}

class Generator {
  constructor(private readonly index: SchemaIndex) {}

  private follow(location: SchemaLocation): SchemaLocation {
    return this.index.resolver.follow(location);
  }

  private at(location: SchemaLocation, tokens: string[], node: JsonObject): SchemaLocation {
    return { document: location.document, pointer: joinPointer(location.pointer, ...tokens), node };
  }

  private alternatives(location: SchemaLocation): SchemaLocation[] {
    const found: SchemaLocation[] = [];
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = location.node[keyword];
      if (Array.isArray(list))
        list.forEach((m, i) => isJsonObject(m) && found.push(this.at(location, [keyword, String(i)], m)));
    }
    return found;
  }

  /** The first non-null declared type, or the one the keywords imply; undefined when unconstrained. */
  private typeOf(node: JsonObject): string | undefined {
    const declared = node['type'];
    const types =
      typeof declared === 'string'
        ? [declared]
        : Array.isArray(declared)
          ? declared.filter((t): t is string => typeof t === 'string')
          : [];
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length > 0) return nonNull[0];
    if (types.length > 0) return 'null';
    if ('properties' in node || 'additionalProperties' in node || 'required' in node) return 'object';
    if ('items' in node) return 'array';
    return undefined;
  }

  /**
   * A property's value. Below a property kept whole as JSON (`@json`) nothing has terms, so its alternatives are not
   * explored (one value will do), and a recursive schema there (2026-07-28's JSONValue) is cut short to a small value
   * of its JSON type.
   */
  private propertyValue(location: SchemaLocation, path: string, run: Run, depth: number): JsonValue {
    if (location.node['x-jsonld-type'] !== '@json') return this.value(location, path, run, depth);
    try {
      return this.value(location, path, { decisions: new Map(), met: new Map(), choices: [] }, depth);
    } catch (error) {
      const opaque = opaqueValue(this.typeOf(this.follow(location).node));
      if (opaque === undefined || !(error instanceof RecursionError)) throw error;
      return opaque;
    }
  }

  value(
    location: SchemaLocation,
    path: string,
    run: Run,
    depth: number,
    options: { exclude?: DocumentId; substitute?: (path: string, key: string) => JsonValue | undefined } = {},
  ): JsonValue {
    if (depth > maxDepth)
      throw new RecursionError(`instance generation went deeper than ${maxDepth} at ${path}: a recursive schema?`);
    const target = this.follow(location);
    const node = target.node;
    if ('const' in node) return structuredClone(node['const']!);
    if (Array.isArray(node['enum']) && node['enum'].length > 0) return structuredClone(node['enum'][0]!);

    const alternatives = this.alternatives(target).filter(
      (a) => options.exclude === undefined || this.follow(a).document !== options.exclude,
    );
    let chosen: SchemaLocation | undefined;
    if (alternatives.length > 0) {
      const key = `${path}|${documentUris[target.document]}#${target.pointer}`;
      const index = Math.min(run.decisions.get(key) ?? 0, alternatives.length - 1);
      const labels = alternatives.map((a, i) => label(a.node, i));
      run.met.set(key, { count: alternatives.length, labels });
      run.choices.push(`${path || '/'}: ${labels[index]}`);
      chosen = alternatives[index]!;
    }

    // Alternatives and allOf members describe the same JSON value: they get the substitutions, not the exclusion.
    const inherited = options.substitute ? { substitute: options.substitute } : {};
    const type = this.typeOf(node);
    const allOf = Array.isArray(node['allOf']) ? node['allOf'] : [];
    if (chosen !== undefined && type === undefined && allOf.length === 0 && !('properties' in node)) {
      return this.value(chosen, path, run, depth + 1, inherited);
    }

    if (type === 'object' || allOf.length > 0 || 'properties' in node || chosen !== undefined) {
      const object: JsonObject = {};
      allOf.forEach((member, i) => {
        if (!isJsonObject(member)) return;
        const memberLocation = this.at(target, ['allOf', String(i)], member);
        if (options.exclude !== undefined && this.follow(memberLocation).document === options.exclude) return;
        const part = this.value(memberLocation, path, run, depth + 1, inherited);
        if (isJsonObject(part)) Object.assign(object, part);
      });
      if (chosen !== undefined) {
        const part = this.value(chosen, path, run, depth + 1, inherited);
        if (isJsonObject(part)) Object.assign(object, part);
      }
      const properties = node['properties'];
      if (isJsonObject(properties)) {
        for (const [key, schema] of Object.entries(properties)) {
          if (!isJsonObject(schema)) continue;
          const substituted = options.substitute?.(path, key);
          object[key] =
            substituted !== undefined
              ? substituted
              : this.propertyValue(this.at(target, ['properties', key], schema), `${path}/${key}`, run, depth + 1);
        }
      }
      const additional = node['additionalProperties'];
      const declaresProperties = isJsonObject(properties) && Object.keys(properties).length > 0;
      if (
        Object.keys(object).length === 0 &&
        !declaresProperties &&
        additional !== false &&
        allOf.length === 0 &&
        chosen === undefined
      ) {
        object['example'] =
          isJsonObject(additional) && Object.keys(additional).length > 0
            ? this.value(this.at(target, ['additionalProperties'], additional), `${path}/example`, run, depth + 1)
            : 'value';
      }
      return object;
    }

    switch (type) {
      case 'array': {
        let items = node['items'];
        let tokens = ['items'];
        if (Array.isArray(items)) {
          items = items[0];
          tokens = ['items', '0'];
        }
        return [
          isJsonObject(items) ? this.value(this.at(target, tokens, items), `${path}/0`, run, depth + 1) : 'value',
        ];
      }
      case 'string': {
        const format = node['format'];
        return typeof format === 'string' && format in formatSamples ? formatSamples[format]! : 'text';
      }
      case 'integer': {
        const minimum = typeof node['minimum'] === 'number' ? Math.ceil(node['minimum']) : undefined;
        const maximum = typeof node['maximum'] === 'number' ? Math.floor(node['maximum']) : undefined;
        let sample = Math.max(1, minimum ?? 1);
        if (maximum !== undefined && sample > maximum) sample = maximum;
        return sample;
      }
      case 'number': {
        const minimum = typeof node['minimum'] === 'number' ? node['minimum'] : undefined;
        const maximum = typeof node['maximum'] === 'number' ? node['maximum'] : undefined;
        let sample = 0.5;
        if (minimum !== undefined && sample < minimum) sample = minimum + 0.5;
        if (maximum !== undefined && sample > maximum) sample = maximum;
        return sample;
      }
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return 'value';
    }
  }
}

/** The JSON-RPC definition a message definition builds on (found through `$ref` and `allOf`). */
function envelopeOf(index: SchemaIndex, location: SchemaLocation, depth = 0): SchemaLocation | undefined {
  const target = index.resolver.follow(location);
  if (target.document === 'json-rpc') return target;
  if (depth > 16) return undefined;
  const allOf = target.node['allOf'];
  if (!Array.isArray(allOf)) return undefined;
  for (const [i, member] of allOf.entries()) {
    if (!isJsonObject(member)) continue;
    const found = envelopeOf(
      index,
      { document: target.document, pointer: joinPointer(target.pointer, 'allOf', String(i)), node: member },
      depth + 1,
    );
    if (found) return found;
  }
  return undefined;
}

const kindByAnchor: Record<string, MessageKind> = {
  Request: 'request',
  Notification: 'notification',
  Response: 'result',
};

/** A message definition's kind: the index's, or that of the JSON-RPC definition it builds on (`Request`, `Result`…). */
export function messageKind(index: SchemaIndex, name: string): MessageKind {
  const known = index.message(name)?.kind;
  if (known !== undefined) return known;
  const anchor = envelopeOf(index, index.definition(name))?.node['$anchor'];
  const kind = typeof anchor === 'string' ? kindByAnchor[anchor] : undefined;
  if (kind === undefined) throw new Error(`${name} does not build on a JSON-RPC request, notification or response`);
  return kind;
}

/**
 * Every instance of message definition `name`. A request or notification definition describes the whole
 * message; a result definition describes the `result` of a JSON-RPC response (whose error branch also gets an
 * instance, with the JSON-RPC error object).
 */
export function messageInstances(index: SchemaIndex, name: string): MessageInstance[] {
  const generator = new Generator(index);
  const definition = index.definition(name);
  const message = { kind: messageKind(index, name) };
  const once = (decisions: ReadonlyMap<string, number>): { run: Run; value: JsonValue } => {
    const run: Run = { decisions, met: new Map(), choices: [] };
    if (message.kind !== 'result') return { run, value: generator.value(definition, '', run, 0) };
    const envelope = envelopeOf(index, definition);
    if (envelope === undefined) throw new Error(`${name} does not build on a JSON-RPC response`);
    const substitute = (path: string, key: string) =>
      path === '' && key === 'result'
        ? generator.value(definition, '/result', run, 1, { exclude: 'json-rpc' })
        : undefined;
    return { run, value: generator.value(envelope, '', run, 0, { substitute }) };
  };

  const instances: MessageInstance[] = [];
  const queue: Array<ReadonlyMap<string, number>> = [new Map()];
  const scheduled = new Set<string>();
  while (queue.length > 0) {
    if (instances.length >= maxInstances)
      throw new Error(`${name}: more than ${maxInstances} instances; the alternatives multiply`);
    const decisions = queue.shift()!;
    const { run, value } = once(decisions);
    if (!isJsonObject(value)) throw new Error(`${name}: the generated message is not an object`);
    instances.push({ definition: name, kind: message.kind, choices: run.choices, message: value });
    for (const [key, met] of run.met) {
      scheduled.add(`${key}=${decisions.get(key) ?? 0}`);
      for (let i = 1; i < met.count; i++) {
        if (scheduled.has(`${key}=${i}`)) continue;
        scheduled.add(`${key}=${i}`);
        queue.push(new Map([...decisions, [key, i]]));
      }
    }
  }
  return instances;
}

/** A small value of a JSON type, for a property kept whole as JSON; undefined when the type is not constrained. */
function opaqueValue(type: string | undefined): JsonValue | undefined {
  if (type === 'object') return { example: 'value' };
  if (type === 'array') return ['value'];
  return undefined;
}

class RecursionError extends Error {}
