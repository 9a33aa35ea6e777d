// Writes quads as N-Quads, TriG, Turtle (the default graph only: graph names are dropped) or JSON-LD compacted
// with the merged context (contexts/mcp.jsonld) plus mcp-ld's own prefixes. jsonld.js never loads a remote document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DataFactory, Writer } from 'n3';
import type { Quad } from '@rdfjs/types';
import { contextsDir } from '../core/paths.js';
import { McpLdError } from '../core/problem.js';
import type { JsonObject } from '../core/json.js';
import { ns } from './vocabulary.js';
import { quadsToNQuads } from './nquads.js';
import { expandedJsonLd } from './expanded-jsonld.js';
import type { RdfFormat } from './formats.js';

/** Prefixes used in Turtle/TriG output. */
export const outputPrefixes: Record<string, string> = { ...ns };

/** The quads in the default graph: for formats that carry triples only. */
function triplesOf(quads: Quad[]): Quad[] {
  return quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object));
}

export function writeNQuads(quads: Quad[]): string {
  return quadsToNQuads(quads);
}

function writeWithPrefixes(quads: Quad[], format: 'TriG' | 'Turtle'): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer = new Writer({ format, prefixes: outputPrefixes });
    writer.addQuads(quads);
    writer.end((error, result: string) => (error ? reject(error) : resolve(result)));
  });
}

let mergedContext: JsonObject | undefined;

/** mcp-ld's own prefixes, which the merged context (the schema's) does not have. */
const ownPrefixes = { mld: ns.mld, mldx: ns.mldx, rdf: ns.rdf };

/** The merged context with mcp-ld's own prefixes added (for compaction of lifted graphs). */
export function compactionContext(): JsonObject {
  if (!mergedContext) {
    const file = path.join(contextsDir, 'mcp.jsonld');
    let context: JsonObject;
    try {
      context = (JSON.parse(readFileSync(file, 'utf8')) as { '@context': JsonObject })['@context'];
    } catch (error) {
      throw McpLdError.of('context.missing', { detail: `cannot read ${file}: ${(error as Error).message}` });
    }
    mergedContext = { ...context, ...ownPrefixes };
  }
  return mergedContext;
}

const noRemoteDocuments = async (url: string): Promise<never> => {
  throw McpLdError.of('jsonld.remote-refused', { detail: `mcp-ld never loads remote documents (${url})` });
};

/**
 * JSON-LD, expanded or compacted. Compacted, its `@context` is the merged context inlined, or — given `contextUrl`,
 * where the merged context (contexts/mcp.jsonld) is published — a reference to it beside mcp-ld's own prefixes: the
 * same document, without the 17 KiB of context in every answer.
 */
export async function writeJsonLd(
  quads: Quad[],
  form: 'compacted' | 'expanded' = 'compacted',
  contextUrl?: string,
): Promise<string> {
  const { default: jsonld } = await import('jsonld'); // loaded only when JSON-LD is asked for
  const expanded = expandedJsonLd(quads);
  if (form === 'expanded') return JSON.stringify(expanded, null, 2) + '\n';
  const compacted = (await jsonld.compact(expanded as never, compactionContext() as never, {
    documentLoader: noRemoteDocuments as never,
  })) as Record<string, unknown>;
  if (contextUrl !== undefined) compacted['@context'] = [contextUrl, ownPrefixes];
  return JSON.stringify(compacted, null, 2) + '\n';
}

/** Characters XML 1.0 cannot hold, even escaped (the C0 controls but tab, newline, return; U+FFFE, U+FFFF). */
const notXmlText = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** RDF/XML holds one graph: quads of several graphs are refused rather than silently merged. */
export async function writeRdfXml(quads: Quad[]): Promise<string> {
  const graphs = new Set(quads.map((q) => q.graph.value));
  if (graphs.size > 1) {
    throw McpLdError.of('format.one-graph', {
      detail: `RDF/XML holds one graph, and this data has ${graphs.size} (one per session): ask for N-Quads, TriG or JSON-LD`,
    });
  }
  // XML 1.0 has no way to write most control characters (U+0000, …): a graph with one is refused, never mangled.
  const unwritable = quads.find((q) => q.object.termType === 'Literal' && notXmlText.test(q.object.value));
  if (unwritable) {
    throw McpLdError.of('format.not-xml', {
      detail: `a literal of <${unwritable.subject.value}> (${unwritable.predicate.value}) holds a control character XML 1.0 cannot carry: ask for N-Quads, TriG, Turtle or JSON-LD`,
    });
  }
  // Predicates that have no QName where rdflib splits them (2026-07-28's `mcp:io.modelcontextprotocol/clientInfo`, an
  // extension key with a `%`) are split where they have one (see rdfxml.ts); rdflib loads only when RDF/XML is asked
  // for.
  const { rdfXml } = await import('./rdfxml.js');
  return rdfXml(triplesOf(quads) as never, outputPrefixes);
}

/** `contextUrl`: compacted JSON-LD references the merged context there instead of inlining it (see writeJsonLd). */
export async function serialize(quads: Quad[], format: RdfFormat, contextUrl?: string): Promise<string> {
  switch (format) {
    case 'nquads':
      return writeNQuads(quads);
    case 'trig':
      return writeWithPrefixes(quads, 'TriG');
    case 'turtle':
      return writeWithPrefixes(triplesOf(quads), 'Turtle');
    case 'ntriples':
      return new Writer({ format: 'N-Triples' }).quadsToString(triplesOf(quads));
    case 'jsonld':
      return writeJsonLd(quads, 'compacted', contextUrl);
    case 'jsonld-expanded':
      return writeJsonLd(quads, 'expanded');
    case 'rdfxml':
      return writeRdfXml(quads);
  }
}
