// How figures read: counts with thousands separators, rates as percentages, times in UTC as captured, latencies in ms.
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function count(value: unknown): string {
  return typeof value === 'number' ? integer.format(value) : value === undefined ? '–' : String(value);
}

export function percent(rate: unknown): string {
  return typeof rate === 'number' ? `${decimal.format(rate * 100)}%` : '–';
}

export function millis(value: unknown): string {
  if (typeof value !== 'number') return '–';
  if (value < 1000) return `${decimal.format(value)} ms`;
  return `${decimal.format(value / 1000)} s`;
}

/** A capture time as `2026-11-29 22:56:04.755 UTC`. */
export function time(value: unknown): string {
  if (typeof value !== 'string') return '–';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** Milliseconds between two capture times, or undefined. */
export function between(first: unknown, last: unknown): number | undefined {
  if (typeof first !== 'string' || typeof last !== 'string') return undefined;
  const ms = Date.parse(last) - Date.parse(first);
  return Number.isNaN(ms) ? undefined : ms;
}

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '–';
  if (ms < 1000) return `${integer.format(ms)} ms`;
  if (ms < 60_000) return `${decimal.format(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

const prefixes: Record<string, string> = {
  mcp: 'http://modelcontextprotocol.io/ontology#',
  jrpc: 'http://json-rpc.org/ontology#',
  mld: 'https://w3id.org/mcp-ld/ns#',
  mldx: 'https://w3id.org/mcp-ld/ext#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
};

/** `mcp:CallToolRequest` for the IRI, when a known prefix fits; else the IRI. */
export function compact(iri: string): string {
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    if (iri.startsWith(namespace) && /^[A-Za-z_][\w.-]*$/.test(iri.slice(namespace.length)))
      return `${prefix}:${iri.slice(namespace.length)}`;
  }
  return iri;
}

/** The vocabulary's own terms (those the Vocabulary view describes). */
export function isVocabularyTerm(compacted: string): boolean {
  return /^(mcp|jrpc|mld):/.test(compacted);
}

/** A direction as the rows give it (`mld:clientToServer`). */
export function isClientToServer(direction: unknown): boolean {
  return direction === 'mld:clientToServer' || direction === 'https://w3id.org/mcp-ld/ns#clientToServer';
}
