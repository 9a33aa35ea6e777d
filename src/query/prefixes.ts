// The prefixes every query may use without declaring them (rdf, rdfs, xsd, owl, mcp, jrpc, mld, mldx), and the
// prologue that declares them for a store, which knows none. A query's own PREFIX declarations come after the
// prologue, so they override these.
import { ns } from '../rdf/index.js';

export const queryPrefixes: Readonly<Record<string, string>> = {
  ...ns,
  owl: 'http://www.w3.org/2002/07/owl#',
};

/** `PREFIX p: <iri>` lines for every predeclared prefix. */
export const prefixPrologue = Object.entries(queryPrefixes)
  .map(([prefix, iri]) => `PREFIX ${prefix}: <${iri}>\n`)
  .join('');

/**
 * `iri` as a prefixed name when a predeclared prefix fits: a local part without characters that need escapes, or —
 * `loose`, for text people read (tables), not parse — any local part without spaces
 * (`mcp:io.modelcontextprotocol/clientInfo`, `mldx:x-vendor%2Fkey`).
 */
export function compactIri(iri: string, { loose = false }: { loose?: boolean } = {}): string | undefined {
  for (const [prefix, namespace] of Object.entries(queryPrefixes)) {
    if (iri.startsWith(namespace)) {
      const local = iri.slice(namespace.length);
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(local) || local === '' || (loose && /^[^\s<>"]+$/.test(local)))
        return `${prefix}:${local}`;
    }
  }
  return undefined;
}
