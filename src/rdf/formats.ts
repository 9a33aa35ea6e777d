// The RDF formats mcp-ld writes and their media types: a table of its own, so a command can check its --format
// option without loading the serializers (n3, jsonld.js) it may never need.

/** The formats `mcp-ld convert --format` offers. */
export const rdfFormats = ['nquads', 'trig', 'turtle', 'jsonld'] as const;
/** Every format mcp-ld writes RDF in (the API negotiates among them). */
export type RdfFormat = (typeof rdfFormats)[number] | 'ntriples' | 'jsonld-expanded' | 'rdfxml';

export const mediaTypes: Record<RdfFormat, string> = {
  nquads: 'application/n-quads',
  trig: 'application/trig',
  turtle: 'text/turtle',
  jsonld: 'application/ld+json',
  'jsonld-expanded': 'application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"',
  ntriples: 'application/n-triples',
  rdfxml: 'application/rdf+xml',
};

export function isRdfFormat(name: string): name is (typeof rdfFormats)[number] {
  return (rdfFormats as readonly string[]).includes(name);
}
