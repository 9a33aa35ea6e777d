// Serializations of the generated graphs (the edge of the ontology stage): Turtle (n3, with blank nodes used once
// written inline and RDF lists as `( … )`), N-Triples (n3, lines sorted), JSON-LD (jsonld.js, compacted with the
// prefixes) and RDF/XML (rdflib). Each is deterministic: the same quads give the same bytes.
import jsonld from 'jsonld';
import { Writer, type Quad, type Quad_Object, type Term } from 'n3';
import { rdf } from '../rdf/index.js';

export type OntologyFormat = 'turtle' | 'rdfxml' | 'jsonld' | 'ntriples';

export const formats: Record<OntologyFormat, { extension: string; mediaType: string }> = {
  turtle: { extension: 'ttl', mediaType: 'text/turtle' },
  rdfxml: { extension: 'rdf', mediaType: 'application/rdf+xml' },
  jsonld: { extension: 'jsonld', mediaType: 'application/ld+json' },
  ntriples: { extension: 'nt', mediaType: 'application/n-triples' },
};

function writerOutput(writer: Writer): Promise<string> {
  return new Promise((resolve, reject) =>
    writer.end((error: Error | null, result: string) => (error ? reject(error) : resolve(result))),
  );
}

const termKey = (term: Term): string => `${term.termType}:${term.value}`;

/** Turtle: subjects in the order the quads give them; blank nodes referenced once are nested where referenced. */
export async function toTurtle(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>): Promise<string> {
  const bySubject = new Map<string, Quad[]>();
  const references = new Map<string, number>();
  for (const q of quads) {
    const key = termKey(q.subject);
    if (!bySubject.has(key)) bySubject.set(key, []);
    bySubject.get(key)!.push(q);
    if (q.object.termType === 'BlankNode')
      references.set(termKey(q.object), (references.get(termKey(q.object)) ?? 0) + 1);
  }
  const inline = (term: Term) => term.termType === 'BlankNode' && references.get(termKey(term)) === 1;
  const writer = new Writer({ prefixes: { ...prefixes } });

  /** The items of a well-formed list whose cells are all inlined blank nodes, else undefined. */
  const listItems = (head: Term): Quad_Object[] | undefined => {
    const items: Quad_Object[] = [];
    for (let cell: Term = head; !(cell.termType === 'NamedNode' && cell.value === rdf.nil);) {
      const cellQuads = bySubject.get(termKey(cell)) ?? [];
      if (!inline(cell) || cellQuads.length !== 2) return undefined;
      const first = cellQuads.find((q) => q.predicate.value === rdf.first);
      const rest = cellQuads.find((q) => q.predicate.value === rdf.rest);
      if (!first || !rest) return undefined;
      items.push(first.object);
      cell = rest.object;
    }
    return items;
  };
  const render = (object: Quad_Object): Quad_Object => {
    if (!inline(object)) return object;
    const items = listItems(object);
    if (items !== undefined) return writer.list(items.map(render)) as unknown as Quad_Object;
    const children = (bySubject.get(termKey(object)) ?? []).map((q) => ({
      predicate: q.predicate,
      object: render(q.object),
    }));
    return writer.blank(children) as unknown as Quad_Object;
  };
  for (const [key, subjectQuads] of bySubject) {
    if (key.startsWith('BlankNode:') && references.get(key) === 1) continue;
    for (const q of subjectQuads) writer.addQuad(q.subject, q.predicate, render(q.object));
  }
  return indentNested(await writerOutput(writer));
}

/** Indents the lines inside `[ … ]` and `( … )` by their depth (n3 writes every nested level at one indentation). */
function indentNested(text: string): string {
  let depth = 0;
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.trimStart();
      const opening = depth;
      let inString = false;
      let closedFirst = 0;
      let seenContent = false;
      for (let i = 0; i < trimmed.length; i++) {
        const c = trimmed[i]!;
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '<') i = Math.max(i, trimmed.indexOf('>', i));
        else if (c === '[' || c === '(') depth++;
        else if (c === ']' || c === ')') {
          depth--;
          if (!seenContent) closedFirst++;
        }
        if (c !== ']' && c !== ')' && c !== ' ') seenContent = true;
      }
      if (opening === 0) return line;
      return ' '.repeat(4 * (1 + opening - closedFirst)) + trimmed;
    })
    .join('\n');
}

/** N-Triples, one triple a line, lines sorted. */
export async function toNTriples(quads: readonly Quad[]): Promise<string> {
  const writer = new Writer({ format: 'N-Triples' });
  for (const q of quads) writer.addQuad(q);
  const text = await writerOutput(writer);
  const lines = text.split('\n').filter((line) => line !== '');
  return `${[...new Set(lines)].sort().join('\n')}\n`;
}

/** JSON-LD compacted with the prefixes (terms as CURIEs), 2-space indented. */
export async function toJsonLd(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>): Promise<string> {
  const writer = new Writer({ format: 'N-Quads' });
  for (const q of quads) writer.addQuad(q);
  const nquads = await writerOutput(writer);
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  const compacted = await jsonld.compact(expanded, { ...prefixes } as jsonld.ContextDefinition);
  return `${JSON.stringify(compacted, null, 2)}\n`;
}

/** RDF/XML, written by rdflib (loaded only when asked for: it is large). */
export async function toRdfXml(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>): Promise<string> {
  const { rdfXml } = await import('../rdf/rdfxml.js');
  return rdfXml(quads, prefixes);
}

export async function serialize(
  quads: readonly Quad[],
  format: OntologyFormat,
  prefixes: Readonly<Record<string, string>>,
): Promise<string> {
  switch (format) {
    case 'turtle':
      return toTurtle(quads, prefixes);
    case 'ntriples':
      return toNTriples(quads);
    case 'jsonld':
      return toJsonLd(quads, prefixes);
    case 'rdfxml':
      return toRdfXml(quads, prefixes);
  }
}
