// jsonld.js for tests, offline: its document loader throws, so no test can reach the network through a remote
// context. Also types the RDF/JS-shaped quads `toRDF` returns.
import jsonld from 'jsonld';
import type { JsonObject } from '../../src/core/json.js';

export interface RdfTerm {
  termType: 'NamedNode' | 'BlankNode' | 'Literal' | 'DefaultGraph';
  value: string;
  datatype?: { termType: 'NamedNode'; value: string };
  language?: string;
}

export interface Quad {
  subject: RdfTerm;
  predicate: RdfTerm;
  object: RdfTerm;
  graph: RdfTerm;
}

/** The base IRI tests resolve relative IRIs (request ids typed `@id`) against. */
const testBase = 'https://example.org/test/';

export const offlineDocumentLoader = async (url: string): Promise<never> => {
  throw new Error(`jsonld.js tried to load ${url}: tests never touch the network`);
};

// @types/jsonld types the loader as a callback-style function; jsonld.js 9 awaits a promise-returning one.
const documentLoader = offlineDocumentLoader as never;

/** `document` with its `@context` replaced by `context` (a context document's `@context` value). */
export function withContext(document: JsonObject, context: JsonObject): JsonObject {
  const { '@context': _ignored, ...rest } = document;
  return { '@context': context['@context'] ?? null, ...rest };
}

export async function expand(document: JsonObject): Promise<unknown[]> {
  return (await jsonld.expand(document as never, { documentLoader, base: testBase })) as unknown[];
}

export async function toQuads(document: JsonObject): Promise<Quad[]> {
  return (await jsonld.toRDF(document as never, { documentLoader, base: testBase } as never)) as unknown as Quad[];
}
