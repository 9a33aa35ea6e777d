// Writes a query's answer a chunk of rows at a time, in the formats whose text is a head, the rows one after the other
// and a tail: SPARQL 1.1 JSON, XML, CSV and TSV results and JSON Lines (SELECT), N-Triples and N-Quads (CONSTRUCT,
// DESCRIBE). Each piece is cut from what result-formats.ts writes, so head + rows + … + tail is its text for all the
// rows at once; and the rows of one chunk as a store hands them over (store/result-chunks.ts) in that format. Pure.
import type { QueryForm, QueryResult } from '../store/quad-store.js';
import { fromSparqlJson, parseTriples, type JsonTerm, type SparqlJson } from '../store/sparql-results.js';
import { writeResult, type ResultFormat } from './result-formats.js';

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
