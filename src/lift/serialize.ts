// Writes quads as N-Quads, TriG, Turtle (the default graph only: graph names are dropped) or JSON-LD compacted
// with the merged context (contexts/mcp.jsonld) plus mcp-ld's own prefixes. jsonld.js never loads a remote document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DataFactory, Writer, type Quad } from 'n3';
import { contextsDir } from '../core/paths.js';
import { McpLdError } from '../core/problem.js';
import type { JsonObject } from '../core/json.js';
import { ns } from './vocabulary.js';
import { quadsToNQuads } from './nquads.js';

export const rdfFormats = ['nquads', 'trig', 'turtle', 'jsonld'] as const;
export type RdfFormat = (typeof rdfFormats)[number];

export const mediaTypes: Record<RdfFormat, string> = {
  nquads: 'application/n-quads',
  trig: 'application/trig',
  turtle: 'text/turtle',
  jsonld: 'application/ld+json',
};

/** Prefixes used in Turtle/TriG output. */
export const outputPrefixes: Record<string, string> = { ...ns };

export function isRdfFormat(name: string): name is RdfFormat {
  return (rdfFormats as readonly string[]).includes(name);
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

/** The merged context with mcp-ld's own prefixes added (for compaction of lifted graphs). */
export function compactionContext(): JsonObject {
  if (!mergedContext) {
    const file = path.join(contextsDir, 'mcp.jsonld');
    let context: JsonObject;
    try {
      context = (JSON.parse(readFileSync(file, 'utf8')) as { '@context': JsonObject })['@context'];
    } catch (error) {
      throw new McpLdError({ code: 'context.missing', status: 500, title: 'Context missing', detail: `cannot read ${file}: ${(error as Error).message}` });
    }
    mergedContext = { ...context, mld: ns.mld, mldx: ns.mldx, rdf: ns.rdf };
  }
  return mergedContext;
}

const noRemoteDocuments = async (url: string): Promise<never> => {
  throw new McpLdError({ code: 'jsonld.remote-refused', status: 400, title: 'Remote document refused', detail: `mcp-ld never loads remote documents (${url})` });
};

export async function writeJsonLd(quads: Quad[]): Promise<string> {
  const { default: jsonld } = await import('jsonld'); // loaded only when JSON-LD is asked for
  const expanded = await jsonld.fromRDF(writeNQuads(quads), { format: 'application/n-quads', useNativeTypes: false });
  const compacted = await jsonld.compact(expanded, compactionContext() as never, { documentLoader: noRemoteDocuments as never });
  return JSON.stringify(compacted, null, 2) + '\n';
}

export async function serialize(quads: Quad[], format: RdfFormat): Promise<string> {
  switch (format) {
    case 'nquads':
      return writeNQuads(quads);
    case 'trig':
      return writeWithPrefixes(quads, 'TriG');
    case 'turtle':
      return writeWithPrefixes(
        quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object)),
        'Turtle',
      );
    case 'jsonld':
      return writeJsonLd(quads);
  }
}
