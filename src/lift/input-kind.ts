// Names what kind of text an input is, from its first lines, so that a command given the wrong kind says so once
// (Turtle given to `convert`, a capture given to `lower`) instead of failing on every line. Pure; reads no more than
// the start of the input.

export type InputKind = 'turtle' | 'nquads' | 'rdfxml' | 'jsonld' | 'mcp-json' | 'mcp-jsonl';

/** How each kind is named to a person. */
export const inputKindNames: Record<InputKind, string> = {
  turtle: 'Turtle',
  nquads: 'N-Quads (or N-Triples)',
  rdfxml: 'RDF/XML',
  jsonld: 'JSON-LD',
  'mcp-json': 'an MCP message (JSON)',
  'mcp-jsonl': 'JSONL of MCP messages',
};

/** The kinds that are RDF rather than MCP messages. */
export const rdfKinds: ReadonlySet<InputKind> = new Set(['turtle', 'nquads', 'rdfxml', 'jsonld']);

const sniffedBytes = 64 * 1024;

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON object that is an MCP message or a capture record of one. */
function isMcp(value: Record<string, unknown>): boolean {
  return (
    value['jsonrpc'] === '2.0' ||
    (typeof value['msg'] === 'object' && value['msg'] !== null) ||
    typeof value['raw'] === 'string'
  );
}

/** A JSON-LD document as convert writes it (an MCP message has no `@context`). */
function isJsonLd(value: Record<string, unknown>): boolean {
  return '@context' in value && !isMcp(value);
}

/**
 * The kind of the input, when its start says clearly; undefined when it says nothing clear (then the command reads it
 * as usual).
 */
export function sniffInputKind(input: Uint8Array | string): InputKind | undefined {
  const start =
    typeof input === 'string'
      ? input.slice(0, sniffedBytes)
      : Buffer.from(input.buffer, input.byteOffset, Math.min(input.byteLength, sniffedBytes)).toString('utf8');
  const lines = start
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const first = lines.find((line) => !line.startsWith('#'));
  if (first === undefined) return undefined;
  if (/^(@prefix|@base)\s/i.test(first) || /^(PREFIX|BASE)\s+\S*\s*</i.test(first)) return 'turtle';
  if (/^<\?xml\b/.test(first) || /^<rdf:RDF\b/.test(first)) return 'rdfxml';
  if (/^(<[^>\s]*>|_:\S+)\s+<[^>\s]*>\s+\S/.test(first)) return /\s\.\s*(#.*)?$/.test(first) ? 'nquads' : 'turtle';
  if (first.startsWith('{') || first.startsWith('[')) {
    const line = jsonObject(first);
    if (line)
      return isJsonLd(line) ? 'jsonld' : isMcp(line) ? (lines.length > 1 ? 'mcp-jsonl' : 'mcp-json') : undefined;
    // A pretty-printed document: its first key tells.
    const key = /^[{[]\s*\{?\s*"([^"]+)"/.exec(start.trimStart())?.[1];
    if (key === '@context') return 'jsonld';
    if (key === 'jsonrpc' || key === 'seq' || key === 'msg') return 'mcp-json';
  }
  return undefined;
}
