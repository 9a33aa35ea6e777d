// Writes a query's answer a chunk of rows at a time, in the formats whose text is a head, the rows one after the other
// and a tail: SPARQL 1.1 JSON, XML, CSV and TSV results and JSON Lines (SELECT), N-Triples and N-Quads (CONSTRUCT,
// DESCRIBE). Each piece is cut from what result-formats.ts writes, so head + rows + … + tail is its text for all the
// rows at once; and the rows of one chunk as a store hands them over (store/result-chunks.ts) in that format, passed
// through as they are when they already are that text (SPARQL JSON asked as SPARQL JSON, N-Triples as N-Triples or
// N-Quads). Pure.
import type { QueryForm, QueryResult } from '../store/quad-store.js';
import { fromSparqlJson, parseTriples, type JsonTerm, type SparqlJson } from '../store/sparql-results.js';
import { writeResult, type ResultFormat } from './result-formats.js';
import { iriRef } from '../core/iri.js';

const solutionStreams: readonly ResultFormat[] = ['json', 'xml', 'csv', 'tsv', 'jsonl'];
const graphStreams: readonly ResultFormat[] = ['ntriples', 'nquads'];

/** Whether answers of `form` are written a chunk at a time in `format` (the others are written whole). */
export function streamsIn(form: QueryForm, format: ResultFormat): boolean {
  if (form === 'SELECT') return solutionStreams.includes(format);
  return form !== 'ASK' && graphStreams.includes(format);
}

type Chunk = Extract<QueryResult, { form: 'SELECT' | 'CONSTRUCT' | 'DESCRIBE' }>;

/** Where the rows are in the text of a whole answer, by format: from the end of the head to the start of the tail. */
function rowsSpan(text: string, format: ResultFormat): { start: number; end: number } {
  switch (format) {
    case 'json': {
      // `{"head":{…},"results":{"bindings":[` rows `]}}\n`
      const start = text.indexOf('"bindings":[') + '"bindings":['.length;
      return { start, end: text.length - ']}}\n'.length };
    }
    case 'xml':
      return { start: text.indexOf('<results>\n') + '<results>\n'.length, end: text.lastIndexOf('</results>') };
    case 'csv':
      return { start: text.indexOf('\r\n') + 2, end: text.length };
    case 'tsv':
      return { start: text.indexOf('\n') + 1, end: text.length };
    default:
      return { start: 0, end: text.length };
  }
}

/** The text before the rows. */
export async function streamHead(form: Chunk['form'], variables: string[], format: ResultFormat): Promise<string> {
  const text = await writeResult(emptyChunk(form, variables), format);
  return text.slice(0, rowsSpan(text, format).start);
}

/** The text after the rows. */
export async function streamTail(form: Chunk['form'], variables: string[], format: ResultFormat): Promise<string> {
  const text = await writeResult(emptyChunk(form, variables), format);
  return text.slice(rowsSpan(text, format).end);
}

/**
 * The rows of one chunk; `after`: rows were written before them (JSON results then put a comma first). Empty for a
 * chunk without rows.
 */
export async function streamRows(chunk: Chunk, format: ResultFormat, after: boolean): Promise<string> {
  if ((chunk.form === 'SELECT' ? chunk.rows.length : chunk.quads.length) === 0) return '';
  const text = await writeResult(chunk, format);
  const { start, end } = rowsSpan(text, format);
  const rows = text.slice(start, end);
  return after && format === 'json' ? `,${rows}` : rows;
}

function emptyChunk(form: Chunk['form'], variables: string[]): Chunk {
  return form === 'SELECT' ? { form, variables, rows: [] } : { form, quads: [] };
}

const decoder = new TextDecoder();

/** One chunk of a streamed answer (quad-store.ts, ResultStream) to write in `format` (query/result-stream.ts). */
export interface ChunkRequest {
  form: 'SELECT' | 'CONSTRUCT' | 'DESCRIBE';
  variables: string[];
  /** A JSON array of SPARQL JSON bindings (SELECT), or N-Triples. */
  data: Uint8Array;
  format: ResultFormat;
  /** Rows were written before this chunk's. */
  after: boolean;
  /** The triples are in this graph (a session's), else in the default graph. */
  graph?: string;
  /** The blank node prefix of the whole answer, so that a blank node in two chunks stays one. */
  blankNodePrefix: string;
}

/**
 * What in an Oxigraph chunk writeChunk would write otherwise, byte patterns found by `Buffer.indexOf`. SPARQL JSON: a
 * literal's direction (`its:dir`, which mcp-ld's terms do not keep) and triple terms (not checked to agree). N-Triples:
 * escapes other than \" \\ \n \r (mcp-ld writes those characters as they are), blank nodes (given the answer's own
 * prefix when re-written), triple terms and directional language tags. A pattern found inside a literal only sends
 * that chunk the long way; the text is the same either way (test/query/result-stream.test.ts).
 */
const rewrittenInJson = ['"its:dir"', '"triple"'].map((pattern) => Buffer.from(pattern));
const rewrittenInTriples = ['\\u', '\\U', '\\t', '\\b', '\\f', "\\'", '_:', '<<', '--ltr .\n', '--rtl .\n'].map(
  (pattern) => Buffer.from(pattern),
);
const comma = Buffer.from(',');

/**
 * The rows of one chunk as the client is sent them, when the store's text already is what writeChunk would write (the
 * pieces to send, in order; none for a chunk without rows): no parse, no re-write, no copy but a session's graph name
 * put in each line. Undefined when the chunk must be written by writeChunk.
 */
export function passThrough(request: ChunkRequest): Buffer[] | undefined {
  const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
  if (request.form === 'SELECT') {
    if (request.format !== 'json' || rewrittenInJson.some((pattern) => data.includes(pattern))) return undefined;
    // `[` rows `]`: the rows without the brackets, after a comma when rows came before.
    if (data.length <= 2) return [];
    const rows = data.subarray(1, data.length - 1);
    return request.after ? [comma, rows] : [rows];
  }
  if (request.format !== 'ntriples' && request.format !== 'nquads') return undefined;
  if (rewrittenInTriples.some((pattern) => data.includes(pattern))) return undefined;
  if (data.length === 0) return [];
  return request.graph === undefined ? [data] : [inGraph(data, request.graph)];
}

/** N-Triples lines (each ends ` .\n`: a literal's newlines are escaped) as N-Quads in `graph`. */
function inGraph(triples: Buffer, graph: string): Buffer {
  const name = Buffer.from(` ${iriRef(graph)}`);
  // Line ends found by their newline alone (a one-byte search is the fastest), the name put before its ` .`.
  const ends: number[] = [];
  for (let at = triples.indexOf(0x0a); at >= 0; at = triples.indexOf(0x0a, at + 1)) ends.push(at - 2);
  const quads = Buffer.allocUnsafe(triples.length + ends.length * name.length);
  let from = 0;
  let to = 0;
  for (const end of ends) {
    to += triples.copy(quads, to, from, end);
    to += name.copy(quads, to);
    from = end;
  }
  to += triples.copy(quads, to, from);
  return quads.subarray(0, to);
}

/** The rows of one chunk of a streamed answer, written in its format. */
export async function writeChunk(request: ChunkRequest): Promise<string> {
  const text = decoder.decode(request.data);
  const { form, variables } = request;
  if (form === 'SELECT') {
    const json: SparqlJson = {
      head: { vars: variables },
      results: { bindings: JSON.parse(text) as Record<string, JsonTerm>[] },
    };
    const { rows } = fromSparqlJson('SELECT', json) as Extract<QueryResult, { form: 'SELECT' }>;
    return streamRows({ form, variables, rows }, request.format, request.after);
  }
  return streamRows(
    { form, quads: parseTriples(text, request.graph, 'N-Triples', request.blankNodePrefix) },
    request.format,
    request.after,
  );
}
