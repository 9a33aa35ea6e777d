// RDF/XML through rdflib's serializer, writing every blank node as a top-level `rdf:Description rdf:nodeID` (the
// "flat" form). rdflib 2.4 nests a blank node referenced once as `parseType="Resource"` around an `rdf:Description`,
// which is not valid RDF/XML (a property element cannot be named rdf:Description); the flat form is always valid.
// Predicates and the types of typed nodes are written as QNames, which rdflib splits after the `#` (else the last
// `/`): an IRI whose part after that is no XML name (`mcp:io.modelcontextprotocol/clientInfo`, a 2026-07-28 `_meta`
// key) is split instead before its longest suffix that is one, under a namespace declared for it (`mcp1:` =
// `…/ontology#io.modelcontextprotocol/`); an IRI that ends in no XML name at all cannot be a predicate in RDF/XML
// (406).
import * as rdflib from 'rdflib';
// The class (the package's `Serializer` export is a factory function).
import { Serializer } from 'rdflib/lib/serializer.js';
import type { Quad, Term } from 'n3';
import { McpLdError } from '../core/problem.js';

type Stats = {
  roots: unknown[];
  subjects: Record<string, unknown[]>;
  rootsHash: Record<string, boolean>;
  incoming: Record<string, unknown[]>;
};

class FlatSerializer extends Serializer {
  override rootSubjects(statements: unknown): Stats {
    const stats = super.rootSubjects(statements) as Stats;
    // Every subject is a root, and no blank node looks singly referenced (so none is nested).
    stats.roots = Object.keys(stats.subjects).map((key) =>
      (this as unknown as { fromStr(s: string): unknown }).fromStr(key),
    );
    for (const key of Object.keys(stats.subjects)) stats.rootsHash[key] = true;
    for (const key of Object.keys(stats.incoming))
      if (stats.incoming[key]!.length === 1) stats.incoming[key]!.push(stats.incoming[key]![0]);
    return stats;
  }
}

function toRdflib(term: Term) {
  switch (term.termType) {
    case 'NamedNode':
      return rdflib.sym(term.value);
    case 'BlankNode':
      return rdflib.blankNode(term.value);
    case 'Literal':
      return term.language
        ? rdflib.lit(term.value, term.language)
        : rdflib.lit(term.value, undefined, rdflib.sym(term.datatype.value));
    default:
      throw new Error(`cannot write a ${term.termType} in RDF/XML`);
  }
}

/** XML name characters, ASCII only (enough for the IRIs mcp-ld writes; others are split before them). */
const nameStart = /[A-Za-z_]/;
const nameChar = /[A-Za-z0-9._-]/;

/** The local part rdflib would give `iri` (after the `#`, else after the last `/`), when it is an XML name. */
function rdflibSplitWorks(iri: string): boolean {
  const hash = iri.indexOf('#');
  const local = iri.slice((hash >= 0 ? hash : iri.lastIndexOf('/')) + 1);
  return local.length > 0 && nameStart.test(local[0]!) && [...local].every((c) => nameChar.test(c));
}

/** `[namespace, local]` with `local` the longest XML-name suffix of `iri`, or undefined when it ends in none. */
function splitQName(iri: string): [string, string] | undefined {
  let start = iri.length;
  while (start > 0 && nameChar.test(iri[start - 1]!)) start--;
  while (start < iri.length && !nameStart.test(iri[start]!)) start++;
  return start < iri.length ? [iri.slice(0, start), iri.slice(start)] : undefined;
}

const placeholderBase = 'urn:x-mcp-ld-rdfxml-namespace:';
const rdfType = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * The namespaces to declare for the predicates and types rdflib cannot split, each with a placeholder namespace
 * (`urn:x-mcp-ld-rdfxml-namespace:1#`) that rdflib splits after its `#`: the quads are written with the placeholder
 * and the placeholder replaced by the namespace in the XML, so the QName, the declaration and any other use stand
 * for the real IRI.
 */
function unsplittable(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>) {
  const iris = new Set<string>();
  for (const q of quads) {
    if (!rdflibSplitWorks(q.predicate.value)) iris.add(q.predicate.value);
    if (q.predicate.value === rdfType && q.object.termType === 'NamedNode' && !rdflibSplitWorks(q.object.value))
      iris.add(q.object.value);
    for (const term of [q.subject, q.predicate, q.object]) {
      if (term.value.includes(placeholderBase))
        throw new Error(`cannot write <${term.value}> in RDF/XML: it contains mcp-ld's placeholder ${placeholderBase}`);
    }
  }
  const namespaces = new Map<string, { prefix: string; placeholder: string }>();
  const rename = new Map<string, string>();
  const used = new Set(Object.keys(prefixes));
  for (const iri of [...iris].sort()) {
    const split = splitQName(iri);
    if (split === undefined) {
      throw McpLdError.of('format.not-xml', {
        detail: `RDF/XML cannot write <${iri}> as a predicate or a node type: it does not end in an XML name; ask for Turtle, N-Triples, N-Quads or JSON-LD`,
      });
    }
    const [namespace, local] = split;
    if (!namespaces.has(namespace)) {
      const base = Object.entries(prefixes).find(([, ns]) => namespace.startsWith(ns))?.[0] ?? 'x';
      let n = 1;
      while (used.has(`${base}${n}`)) n++;
      used.add(`${base}${n}`);
      namespaces.set(namespace, { prefix: `${base}${n}`, placeholder: `${placeholderBase}${namespaces.size + 1}#` });
    }
    rename.set(iri, namespaces.get(namespace)!.placeholder + local);
  }
  return { namespaces, rename };
}

// Exported for a dynamic import: serialize.ts imports it only when RDF/XML is asked for.
// ts-unused-exports:disable-next-line
export function rdfXml(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>): string {
  const { namespaces, rename } = unsplittable(quads, prefixes);
  const named = (term: Term, position: 'predicate' | 'type' | 'other') =>
    position !== 'other' && rename.has(term.value) ? rdflib.sym(rename.get(term.value)!) : toRdflib(term);
  const store = rdflib.graph();
  for (const q of quads) {
    const type = q.predicate.value === rdfType;
    store.add(
      toRdflib(q.subject) as never,
      named(q.predicate, 'predicate') as never,
      named(q.object, type ? 'type' : 'other') as never,
    );
  }
  const serializer = new FlatSerializer(store);
  const declared: Record<string, string> = { ...prefixes };
  for (const { prefix, placeholder } of namespaces.values()) declared[prefix] = placeholder;
  serializer.setNamespaces(declared);
  let xml = serializer.statementsToXML(store.statements);
  for (const [namespace, { placeholder }] of namespaces) xml = xml.split(placeholder).join(escapeAttribute(namespace));
  return xml;
}
