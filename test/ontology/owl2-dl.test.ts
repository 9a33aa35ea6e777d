// The ontology's OWL 2 DL structure, checked on the generated Turtle without a reasoner (the OWL API's own profile
// check runs in test/conformance/owl2-dl.test.ts where Debian's libowlapi-java is installed): no reserved RDF or
// RDFS IRI where OWL 2 DL wants a class, every datatype either OWL 2's or declared, every annotation property and
// every alignment target declared, and no IRI declared as two kinds of property.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Quad } from 'n3';
import { ontologyDir } from '../../src/core/paths.js';
import { ns, rdf } from '../../src/rdf/vocabulary.js';
import { parseTurtle } from './rdf-helpers.js';

const owl = 'http://www.w3.org/2002/07/owl#';
const rdfs = ns.rdfs;
const reserved = [ns.rdf, ns.rdfs, owl];
/** The datatypes of the OWL 2 datatype map (OWL 2 Structural Specification §4), besides xsd: ones. */
const owl2Datatypes = new Set([
  `${ns.rdf}PlainLiteral`,
  `${ns.rdf}XMLLiteral`,
  `${rdfs}Literal`,
  `${owl}real`,
  `${owl}rational`,
]);

function typed(quads: readonly Quad[], type: string): Set<string> {
  return new Set(
    quads.filter((q) => q.predicate.value === rdf.type && q.object.value === type).map((q) => q.subject.value),
  );
}

function objects(
  quads: readonly Quad[],
  subject: Quad['subject'] | Quad['object'],
  predicate: string,
): Quad['object'][] {
  return quads.filter((q) => q.subject.equals(subject) && q.predicate.value === predicate).map((q) => q.object);
}

function listItems(quads: readonly Quad[], head: Quad['object']): Quad['object'][] {
  const items: Quad['object'][] = [];
  for (let cell = head; cell.value !== rdf.nil;) {
    const first = objects(quads, cell, rdf.first)[0];
    const rest = objects(quads, cell, rdf.rest)[0];
    if (first === undefined || rest === undefined) break;
    items.push(first);
    cell = rest;
  }
  return items;
}

/** The named members of a class or data range expression: itself when named, else the members of its union. */
function namedMembers(quads: readonly Quad[], expression: Quad['object']): string[] {
  if (expression.termType === 'NamedNode') return [expression.value];
  const union = objects(quads, expression, `${owl}unionOf`)[0];
  return union === undefined ? [] : listItems(quads, union).flatMap((m) => namedMembers(quads, m));
}

describe('ontology: OWL 2 DL structure (ontology/mcp-ld.ttl)', () => {
  const quads = parseTurtle(readFileSync(path.join(ontologyDir, 'mcp-ld.ttl'), 'utf8'));
  const objectProperties = typed(quads, `${owl}ObjectProperty`);
  const datatypeProperties = typed(quads, `${owl}DatatypeProperty`);
  const annotationProperties = typed(quads, `${owl}AnnotationProperty`);
  const datatypes = typed(quads, `${rdfs}Datatype`);
  const declared = new Set([
    ...objectProperties,
    ...datatypeProperties,
    ...annotationProperties,
    ...typed(quads, `${owl}Class`),
    ...datatypes,
  ]);

  it('uses no RDF, RDFS or OWL IRI as a class (rdf:List, rdf:Property, an undeclared rdf:JSON) but owl:Thing', () => {
    const classPositions = quads.flatMap((q) => {
      if (
        q.predicate.value === `${rdfs}domain` ||
        q.predicate.value === `${rdfs}subClassOf` ||
        q.predicate.value === `${owl}someValuesFrom`
      )
        return [q.object];
      if (q.predicate.value === `${rdfs}range` && objectProperties.has(q.subject.value)) return [q.object];
      return [];
    });
    const misused = new Set(
      classPositions
        .flatMap((o) => namedMembers(quads, o))
        .filter((iri) => reserved.some((n) => iri.startsWith(n)) && iri !== `${owl}Thing`),
    );
    assert.deepEqual([...misused].sort(), []);
  });

  it('ranges every data property over datatypes of OWL 2 or declared ones (rdf:JSON is declared a datatype)', () => {
    const used = new Set(
      quads
        .filter((q) => q.predicate.value === `${rdfs}range` && datatypeProperties.has(q.subject.value))
        .flatMap((q) => namedMembers(quads, q.object)),
    );
    const unknown = [...used]
      .filter((iri) => !iri.startsWith(ns.xsd) && !owl2Datatypes.has(iri) && !datatypes.has(iri))
      .sort();
    assert.deepEqual(unknown, []);
    assert.ok(datatypes.has(rdf.JSON));
  });

  it('declares no IRI as both an object and a datatype property (no punning of properties)', () => {
    assert.deepEqual(
      [...objectProperties].filter((iri) => datatypeProperties.has(iri) || annotationProperties.has(iri)).sort(),
      [],
    );
    assert.deepEqual([...datatypeProperties].filter((iri) => annotationProperties.has(iri)).sort(), []);
  });

  it('declares every annotation property it uses (dcterms:title, sh:declare, sh:prefix, …): only RDFS and OWL ones are built in', () => {
    const predicates = new Set(quads.map((q) => q.predicate.value));
    const undeclared = [...predicates]
      .filter((iri) => !reserved.some((n) => iri.startsWith(n)) && !declared.has(iri))
      .sort();
    assert.deepEqual(undeclared, []);
  });

  it('declares the OGC terms it aligns with (jrpc:hasVersion, mcp:hasMethod, mcp:hasID)', () => {
    const targets = quads
      .filter(
        (q) =>
          [`${owl}equivalentProperty`, `${owl}equivalentClass`].includes(q.predicate.value) ||
          (q.predicate.value === `${rdfs}seeAlso` &&
            /^http:\/\/(modelcontextprotocol\.io|json-rpc\.org)\/ontology#/.test(q.object.value)),
      )
      .filter((q) => q.object.termType === 'NamedNode' && !q.object.value.startsWith(ns.xsd)) // datatype definitions: mcp:Cursor ≡ xsd:string
      .map((q) => q.object.value);
    assert.ok(
      targets.includes(`${ns.jrpc}hasVersion`) && targets.includes(`${ns.mcp}hasID`),
      'the alignment still names them',
    );
    assert.deepEqual(targets.filter((iri) => !declared.has(iri)).sort(), []);
  });
});
