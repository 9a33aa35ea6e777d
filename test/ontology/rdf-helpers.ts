// Helpers of the ontology tests: parsing each serialization into RDF-JS quads (n3 for Turtle/N-Triples, jsonld.js
// for JSON-LD, rdflib and rdfxml-streaming-parser for RDF/XML), the declared terms of an ontology graph, and the
// lifted corpus (the real capture and the OGC examples) with ajv's verdict per message.
import jsonld from 'jsonld';
import { DataFactory, Parser, Store, type Quad, type Term } from 'n3';
import * as rdflib from 'rdflib';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter, type LiftedMessage } from '../../src/lift/lifter.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import { ns, rdf } from '../../src/rdf/vocabulary.js';
import { ogcExamples, trafficRecords } from '../helpers/corpus.js';
import { isJsonObject, type JsonValue } from '../../src/core/json.js';
import { expandIri } from '../../src/context/iris.js';

const { namedNode, blankNode, literal, quad } = DataFactory;

export function parseTurtle(text: string): Quad[] {
  return new Parser({ format: 'text/turtle' }).parse(text);
}

export function parseNTriples(text: string): Quad[] {
  return new Parser({ format: 'application/n-triples' }).parse(text);
}

export async function parseJsonLd(text: string): Promise<Quad[]> {
  const nquads = (await jsonld.toRDF(JSON.parse(text) as jsonld.JsonLdDocument, {
    format: 'application/n-quads',
  })) as unknown as string;
  return new Parser({ format: 'application/n-quads' }).parse(nquads);
}

/** RDF/XML read by rdflib (the library that writes it). */
export function parseRdfXmlWithRdflib(text: string): Quad[] {
  const store = rdflib.graph();
  rdflib.parse(text, store, 'https://example.org/base', 'application/rdf+xml');
  const term = (t: { termType: string; value: string; language?: string; datatype?: { value: string } }): Term => {
    if (t.termType === 'NamedNode') return namedNode(t.value);
    if (t.termType === 'BlankNode') return blankNode(t.value);
    return t.language ? literal(t.value, t.language) : literal(t.value, namedNode(t.datatype!.value));
  };
  return store.statements.map((s) =>
    quad(term(s.subject as never) as never, term(s.predicate as never) as never, term(s.object as never) as never),
  );
}

/** RDF/XML read by an independent, strict parser (rdfxml-streaming-parser): rejects what is not RDF/XML. */
export function parseRdfXmlStrictly(text: string): Promise<Quad[]> {
  return new Promise((resolve, reject) => {
    const parser = new RdfXmlParser({ baseIRI: 'https://example.org/base', dataFactory: DataFactory as never });
    const quads: Quad[] = [];
    parser.on('data', (q: Quad) => quads.push(quad(q.subject, q.predicate, q.object)));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    parser.write(text);
    parser.end();
  });
}

/** The IRIs an ontology graph declares: typed as a class, datatype, property or individual, or described. */
export function declaredIris(quads: readonly Quad[]): Set<string> {
  const declaring = new Set([
    `${ns.rdfs}Datatype`,
    'http://www.w3.org/2002/07/owl#Class',
    'http://www.w3.org/2002/07/owl#ObjectProperty',
    'http://www.w3.org/2002/07/owl#DatatypeProperty',
    'http://www.w3.org/2002/07/owl#NamedIndividual',
    'http://www.w3.org/2002/07/owl#AnnotationProperty',
  ]);
  return new Set(
    quads
      .filter(
        (q) => q.predicate.value === rdf.type && declaring.has(q.object.value) && q.subject.termType === 'NamedNode',
      )
      .map((q) => q.subject.value),
  );
}

export function objectsOf(quads: readonly Quad[], subject: string, predicate: string): Term[] {
  return quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object);
}

export interface LiftedCorpus {
  messages: { lifted: LiftedMessage; record: CaptureRecord; name: string }[];
  /** Every quad, in the default graph (the shapes check one graph). */
  store: Store;
}

/** Lifts records with one lifter (sessions as the records say). */
export function liftCorpus(records: { record: CaptureRecord; name: string }[]): LiftedCorpus {
  const lifter = new Lifter(loadSchema());
  const store = new Store();
  const messages = records.map(({ record, name }) => {
    const lifted = lifter.lift(record);
    for (const q of lifted.quads) store.addQuad(quad(q.subject, q.predicate, q.object));
    return { lifted, record, name };
  });
  return { messages, store };
}

export function trafficCorpus(): LiftedCorpus {
  return liftCorpus(trafficRecords().map((record) => ({ record, name: `traffic seq ${record.seq}` })));
}

/** The OGC examples, each a plain message in a session of its own. */
export function ogcCorpus(): LiftedCorpus {
  return liftCorpus(ogcExamples().map(({ name, msg }) => ({ record: { msg, session: `ogc/${name}` }, name })));
}

/** The message whose nodes include `focus` (its IRI, or an IRI below it). */
export function messageOf<T extends { lifted: LiftedMessage }>(messages: readonly T[], focus: string): T | undefined {
  return messages.find(({ lifted }) => focus === lifted.iri || focus.startsWith(`${lifted.iri}/`));
}

/**
 * Every IRI a context document uses: term `@id`s and `@type`s (datatypes, classes; keywords left out), expanded with
 * its prefixes, in scoped contexts too.
 */
export function contextIris(document: JsonValue): Set<string> {
  const iris = new Set<string>();
  const visit = (context: JsonValue, prefixes: Record<string, string>) => {
    if (Array.isArray(context)) return context.forEach((c) => visit(c, prefixes));
    if (!isJsonObject(context)) return;
    const local = { ...prefixes };
    for (const [key, value] of Object.entries(context))
      if (typeof value === 'string' && /[#/]$/.test(value)) local[key] = value;
    for (const [key, value] of Object.entries(context)) {
      if (key.startsWith('@') || key in local) continue;
      const definition = typeof value === 'string' ? { '@id': value } : value;
      if (!isJsonObject(definition)) continue;
      for (const keyword of ['@id', '@type']) {
        const iri = definition[keyword];
        if (typeof iri === 'string' && !iri.startsWith('@')) iris.add(expandIri(iri, local));
      }
      if (definition['@context'] !== undefined) visit(definition['@context'], local);
    }
  };
  visit(isJsonObject(document) ? (document['@context'] ?? null) : null, {});
  return iris;
}
