// "At least 85% of the JSON values lifted to RDF terms of their own": measured on every real capture. Lowering
// reproduces every message (test/lower), so no value is lost: each is either a term of its own or inside an
// rdf:JSON literal of the message body (what the lifter emits beyond its session layer). A value inside such a
// literal counts as a term of its own only when the session layer really has it: as the literal of a derived
// triple (argument and member values, schema keywords) on the node its JSON path names, checked here triple by
// triple (see derived.ts for the shape).
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Quad } from 'n3';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { jsonLiteral, naturalLiteral, type LiteralForm } from '../../src/rdf/literals.js';
import { childIri, mld, ns, rdf } from '../../src/rdf/vocabulary.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import type { JsonValue } from '../../src/core/json.js';
import { captureFiles, trafficRecords } from '../helpers/corpus.js';

/** Scalars in a JSON value (null included); an empty object or array counts as one value. */
function leaves(value: JsonValue): number {
  if (value === null || typeof value !== 'object') return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.length === 0 ? 1 : children.reduce<number>((sum, child) => sum + leaves(child), 0);
}

/** Every leaf of a JSON value with its path. */
function* leafPaths(value: JsonValue, at: (string | number)[] = []): Generator<[(string | number)[], JsonValue]> {
  const children: [string | number, JsonValue][] | undefined =
    value === null || typeof value !== 'object'
      ? undefined
      : Array.isArray(value)
        ? value.map((v, i) => [i, v])
        : Object.entries(value);
  if (!children || children.length === 0) {
    yield [at, value];
    return;
  }
  for (const [key, child] of children) yield* leafPaths(child, [...at, key]);
}

/** The predicate a schema keyword is lifted by, when its name is not the keyword's. */
const keywordPredicates: Record<string, string> = {
  type: mld.jsonType,
  enum: mld.enumValue,
  $schema: mld.schemaDialect,
  const: mld.constValue,
};
const keywordPredicate = (keyword: string | number) => keywordPredicates[keyword] ?? `${ns.mld}${keyword}`;

type Derived = Map<string, { predicate: string; object: Quad['object'] }[]>;

const hasLiteral = (derived: Derived, subject: string, predicates: string[], form: LiteralForm) =>
  (derived.get(subject) ?? []).some(
    ({ predicate, object }) =>
      predicates.includes(predicate) &&
      object.termType === 'Literal' &&
      object.value === form.value &&
      object.datatype.value === form.datatype,
  );

/**
 * Whether the leaf at `at` below the literal's node `base` is also a term of the session layer: the value of the
 * argument or member node at its path; or a schema keyword's literal on the schema node one step up (two for an
 * array keyword: `enum`, `type`); or, for a name in `required`, mld:required true on that parameter.
 */
function derivedTerm(derived: Derived, base: string, at: (string | number)[], leaf: JsonValue): boolean {
  const form = leaf === null || typeof leaf === 'object' ? jsonLiteral(leaf) : naturalLiteral(leaf);
  const node = (steps: (string | number)[]) => steps.reduce<string>((iri, step) => childIri(iri, step), base);
  const n = at.length;
  if (hasLiteral(derived, node(at), [mld.argumentValue, mld.memberValue], form)) return true;
  if (n >= 1 && hasLiteral(derived, node(at.slice(0, n - 1)), [keywordPredicate(at[n - 1]!)], form)) return true;
  if (n >= 2 && typeof at[n - 1] === 'number') {
    if (hasLiteral(derived, node(at.slice(0, n - 2)), [keywordPredicate(at[n - 2]!)], form)) return true;
    if (at[n - 2] === 'required' && typeof leaf === 'string') {
      return hasLiteral(
        derived,
        childIri(node([...at.slice(0, n - 2), 'properties']), leaf),
        [mld.required],
        naturalLiteral(true),
      );
    }
  }
  return false;
}

/**
 * The JSON key a schema predicate stands for (`mcp:hasInputSchema` → `inputSchema`): the literal's path below its
 * subject.
 */
function keyOf(predicate: string): string | undefined {
  const local = /#has([A-Z].*)$/.exec(predicate)?.[1];
  return local === undefined ? undefined : local[0]!.toLowerCase() + local.slice(1);
}

interface Figures {
  total: number;
  /** Values inside rdf:JSON literals of the body. */
  opaque: number;
  /** Of those, the ones the session layer also has as terms. */
  derived: number;
}

function measure(records: CaptureRecord[]): Figures {
  const schema = loadSchema();
  const full = new Lifter(schema, { validate: false });
  const sessionLayer = new Lifter(schema, { validate: false });
  const figures: Figures = { total: 0, opaque: 0, derived: 0 };
  for (const record of records) {
    figures.total += leaves(record.msg);
    const layerQuads = sessionLayer.lift(record, 'session-layer').quads;
    const layer = new Set(writeNQuads(layerQuads).split('\n'));
    const derived: Derived = new Map();
    for (const q of layerQuads) {
      const list = derived.get(q.subject.value) ?? [];
      list.push({ predicate: q.predicate.value, object: q.object });
      derived.set(q.subject.value, list);
    }
    const body: Quad[] = full.lift(record).quads.filter((q) => !layer.has(writeNQuads([q]).trim()));
    for (const q of body) {
      if (q.object.termType !== 'Literal' || q.object.datatype.value !== rdf.JSON || q.object.value === 'null')
        continue;
      const value = JSON.parse(q.object.value) as JsonValue;
      const key = keyOf(q.predicate.value);
      for (const [at, leaf] of leafPaths(value)) {
        figures.opaque += 1;
        if (key !== undefined && derivedTerm(derived, childIri(q.subject.value, key), at, leaf)) figures.derived += 1;
      }
    }
  }
  return figures;
}

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;

describe('lift: how much of real traffic becomes RDF terms of its own', () => {
  for (const file of captureFiles()) {
    const capture = path.basename(file);
    it(`lifts at least 85% of the JSON values of ${capture} to terms of their own`, () => {
      const { total, opaque, derived } = measure(trafficRecords(file));
      const own = total - opaque + derived;
      const share = own / total;
      console.log(
        `      ${capture}: ${own} of ${total} JSON values are RDF terms of their own (${percent(share)}); ` +
          `${opaque} inside rdf:JSON literals, ${derived} of them also lifted as data (${percent((total - opaque) / total)} without those)`,
      );
      assert.ok(share >= 0.85, `only ${percent(share)} of the values of ${capture} are terms of their own`);
    });
  }
});
