// The SPARQL 1.1 Service Description of /sparql (https://www.w3.org/TR/sparql11-service-description/): what a GET
// with no query answers. Pure: the facts of the service in, quads or text out (written in the offload thread).
import { DataFactory, Writer, type Quad } from 'n3';
import { ns } from '../rdf/vocabulary.js';
import type { RdfFormat } from '../rdf/formats.js';
import type { ResultFormat } from '../query/index.js';
import type { GraphSummary } from '../store/quad-store.js';

const { namedNode, literal, quad } = DataFactory;

const sd = 'http://www.w3.org/ns/sparql-service-description#';
const voidNs = 'http://rdfs.org/ns/void#';
const formats = 'http://www.w3.org/ns/formats/';

/** The W3C format IRIs (https://www.w3.org/ns/formats/) of the result formats /sparql writes (rows and JSON Lines,
 *  mcp-ld's own, have none). */
const formatIris: Partial<Record<ResultFormat, string>> = {
  json: `${formats}SPARQL_Results_JSON`,
  xml: `${formats}SPARQL_Results_XML`,
  csv: `${formats}SPARQL_Results_CSV`,
  tsv: `${formats}SPARQL_Results_TSV`,
  turtle: `${formats}Turtle`,
  ntriples: `${formats}N-Triples`,
  nquads: `${formats}N-Quads`,
  jsonld: `${formats}JSON-LD`,
  rdfxml: `${formats}RDF_XML`,
};

export interface ServiceFacts {
  /** The endpoint's own URL, as the request reached it. */
  endpoint: string;
  /** Whether the service takes SPARQL Update (a write token is configured). */
  updates: boolean;
  /** The formats its answers come in. */
  resultFormats: readonly ResultFormat[];
  /** The session graphs: the named graphs of the default dataset. */
  graphs: readonly GraphSummary[];
  timeoutMs: number;
  maxRows: number;
  maxBytes: number;
}

/** The formats a service description is written in, the first the default. */
export const descriptionFormats = [
  'turtle',
  'jsonld-expanded',
  'ntriples',
  'rdfxml',
] as const satisfies readonly RdfFormat[];
export type DescriptionFormat = (typeof descriptionFormats)[number];

/**
 * The description: an sd:Service at the endpoint, its languages, result formats and features, and its default
 * dataset (the union of the session graphs as default graph, each session graph a named graph with its size). Nodes
 * are named after the endpoint (`#service`, `#dataset`, `#named-graph/<graph>`), never blank.
 */
function serviceDescription(facts: ServiceFacts): Quad[] {
  const node = (fragment: string) => namedNode(`${facts.endpoint}#${fragment}`);
  const service = node('service');
  const dataset = node('dataset');
  const defaultGraph = node('default-graph');
  const quads: Quad[] = [];
  const add = (subject: Quad['subject'], predicate: string, object: Quad['object']) =>
    quads.push(quad(subject, namedNode(predicate), object));
  const type = `${ns.rdf}type`;
  const count = (n: number) => literal(String(n), namedNode(`${ns.xsd}integer`));

  add(service, type, namedNode(`${sd}Service`));
  add(service, `${sd}endpoint`, namedNode(facts.endpoint));
  add(service, `${sd}supportedLanguage`, namedNode(`${sd}SPARQL11Query`));
  if (facts.updates) add(service, `${sd}supportedLanguage`, namedNode(`${sd}SPARQL11Update`));
  for (const format of facts.resultFormats) {
    const iri = formatIris[format];
    if (iri) add(service, `${sd}resultFormat`, namedNode(iri));
  }
  add(service, `${sd}feature`, namedNode(`${sd}UnionDefaultGraph`));
  add(service, `${sd}defaultEntailmentRegime`, namedNode('http://www.w3.org/ns/entailment/Simple'));
  // No vocabulary has terms for these limits (mcp-ld's own has none): said in words.
  add(
    service,
    `${ns.rdfs}comment`,
    literal(
      `A query runs for at most ${facts.timeoutMs} ms (MCPLD_QUERY_TIMEOUT; 504 past it) and answers at most ${facts.maxRows} rows (MCPLD_MAX_RESULT_ROWS) ` +
        `and ${facts.maxBytes} bytes (MCPLD_MAX_RESULT_BYTES; 422 past either). SERVICE, LOAD and updates outside GRAPH are refused.`,
    ),
  );
  add(service, `${sd}defaultDataset`, dataset);

  add(dataset, type, namedNode(`${sd}Dataset`));
  add(dataset, `${sd}defaultGraph`, defaultGraph);
  const named = facts.graphs.map(({ graph }) => node(`named-graph/${encodeURIComponent(graph)}`));
  for (const entry of named) add(dataset, `${sd}namedGraph`, entry);
  add(defaultGraph, type, namedNode(`${sd}Graph`));
  add(
    defaultGraph,
    `${ns.rdfs}comment`,
    literal(
      `the union of every session graph (${facts.graphs.length}); a query's FROM, or default-graph-uri, names another`,
    ),
  );
  facts.graphs.forEach(({ graph, quads: size }, i) => {
    const description = node(`graph/${encodeURIComponent(graph)}`);
    add(named[i]!, type, namedNode(`${sd}NamedGraph`));
    add(named[i]!, `${sd}name`, namedNode(graph));
    add(named[i]!, `${sd}graph`, description);
    add(description, type, namedNode(`${sd}Graph`));
    add(description, `${voidNs}triples`, count(size));
  });
  return quads;
}

/** The description as text: Turtle with the sd:, void: and formats: prefixes, or as the serializers write. */
export async function writeServiceDescription(facts: ServiceFacts, format: DescriptionFormat): Promise<string> {
  const quads = serviceDescription(facts);
  if (format === 'turtle') {
    return new Promise((resolve, reject) => {
      const writer = new Writer({
        format: 'Turtle',
        prefixes: { sd, void: voidNs, formats, rdf: ns.rdf, rdfs: ns.rdfs, xsd: ns.xsd },
      });
      writer.addQuads(quads);
      writer.end((error, text: string) => (error ? reject(error) : resolve(text)));
    });
  }
  const { serialize } = await import('../rdf/serialize.js');
  return serialize(quads, format);
}
