// A streamed answer's chunks passed through as Oxigraph wrote them (result-stream.ts, passThrough): whenever a chunk is
// passed through, its bytes are those writeChunk writes from it (parsed and written again), and head + rows + tail is
// the whole answer's text, whole and cut in chunks of any size; chunks that would be written otherwise (escapes,
// blank nodes, directions, triple terms) are not passed through. Over Oxigraph's own answers, in process.
import assert from 'node:assert/strict';
import oxigraph from 'oxigraph';
import {
  passThrough,
  streamHead,
  streamTail,
  writeChunk,
  writeResult,
  type ResultFormat,
} from '../../src/query/index.js';
import { ResultChunker } from '../../src/store/result-chunks.js';
import { readQueryText } from '../../src/store/sparql-results.js';
import type { ChunkRequest } from '../../src/query/result-stream.js';

const { namedNode, literal, quad, blankNode } = oxigraph;
const xsd = 'http://www.w3.org/2001/XMLSchema#';
const graph = 'urn:mcp-ld:session/pass';

/** Literals that mcp-ld and Oxigraph write alike: quotes, backslashes, newlines, brackets, any Unicode. */
const plainValues = [
  'plain',
  'a "quoted" \\ back\\slash',
  'line\nbreak\r\n',
  '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a \\"b\\"\\n"}]}}',
  '},{"s":',
  ' .\n<urn:x> <urn:y> "z" .',
  'é😀\u2028\ufeff\ue000 < > { } | ^ `',
  '',
];
/** Literals that mcp-ld writes otherwise in N-Triples (Oxigraph escapes them, mcp-ld writes them as they are). */
const escapedValues = ['tab\there', 'bell\u0007', 'back\bspace', 'form\ffeed', 'del\u007f', 'nonchar\uffff'];

function plainStore(): oxigraph.Store {
  const store = new oxigraph.Store();
  const g = namedNode(graph);
  plainValues.forEach((value, i) => {
    const s = namedNode(`urn:mcp-ld:session/pass/message/${i}`);
    store.add(quad(s, namedNode('urn:p:plain'), literal(value), g));
    store.add(quad(s, namedNode('urn:p:lang'), literal(value, 'en-GB'), g));
    store.add(
      quad(s, namedNode('urn:p:json'), literal(value, namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON')), g),
    );
    store.add(quad(s, namedNode('urn:p:int'), literal(String(i), namedNode(`${xsd}integer`)), g));
    store.add(quad(s, namedNode('urn:p:string'), literal(value, namedNode(`${xsd}string`)), g));
    store.add(quad(s, namedNode('urn:p:iri'), namedNode(`http://example.org/ä/%20~${i}?q=1#f`), g));
  });
  return store;
}

type Chunked = Pick<ChunkRequest, 'form' | 'format' | 'graph'>;

/**
 * The text of an answer streamed from Oxigraph's text in chunks of `maxChars`: each chunk passed through when it can
 * be (asserting its bytes are writeChunk's), else written; and how many chunks were passed through, of how many.
 */
async function streamed(
  text: string,
  { form, format, graph: inGraph }: Chunked,
  maxChars: number,
): Promise<{ text: string; passed: number; chunks: number }> {
  const chunker = new ResultChunker(form, text);
  const { variables } = chunker.head;
  let out = await streamHead(form, variables, format);
  let after = false;
  let passed = 0;
  let chunks = 0;
  for (let chunk = chunker.next(maxChars); chunk !== undefined; chunk = chunker.next(maxChars)) {
    chunks += 1;
    const request: ChunkRequest = {
      form,
      variables,
      data: new TextEncoder().encode(chunk),
      format,
      after,
      blankNodePrefix: 'bpass_',
      ...(inGraph ? { graph: inGraph } : {}),
    };
    const written = await writeChunk(request);
    const pieces = passThrough(request);
    if (pieces) {
      passed += 1;
      assert.equal(Buffer.concat(pieces).toString(), written, `chunk ${chunks} passed through differs`);
    }
    out += written;
    if (written.length > 0) after = true;
  }
  return { text: out + (await streamTail(form, variables, format)), passed, chunks };
}

const select = `SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?s ?p ?o`;
const construct = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }`;

describe('query: chunks passed through as the store wrote them', () => {
  const store = plainStore();
  const selectText = store.query(select, { results_format: 'application/sparql-results+json' }) as string;
  const triples = store.query(construct, { results_format: 'application/n-triples' }) as string;

  for (const maxChars of [1, 300, 5_000, 10_000_000]) {
    it(`passes a SELECT's SPARQL JSON through in the whole answer's bytes (chunks of ${maxChars} characters)`, async () => {
      const whole = await writeResult(readQueryText({ form: 'SELECT', data: Buffer.from(selectText) }), 'json');
      const answer = await streamed(selectText, { form: 'SELECT', format: 'json' }, maxChars);
      assert.equal(answer.text, whole);
      assert.equal(answer.passed, answer.chunks);
    });

    for (const format of ['ntriples', 'nquads'] as ResultFormat[]) {
      it(`passes a CONSTRUCT's N-Triples through as ${format} in the whole answer's bytes (chunks of ${maxChars} characters)`, async () => {
        const whole = await writeResult(readQueryText({ form: 'CONSTRUCT', data: Buffer.from(triples) }), format);
        const answer = await streamed(triples, { form: 'CONSTRUCT', format }, maxChars);
        assert.equal(answer.text, whole);
        assert.equal(answer.passed, answer.chunks);
      });
    }

    it(`passes a session's triples through as N-Quads in its graph (chunks of ${maxChars} characters)`, async () => {
      const dump = store.dump({ format: 'application/n-triples', from_graph_name: namedNode(graph) });
      const whole = await writeChunk({
        form: 'CONSTRUCT',
        variables: [],
        data: Buffer.from(dump),
        format: 'nquads',
        after: false,
        graph,
        blankNodePrefix: 'bpass_',
      });
      const answer = await streamed(dump, { form: 'CONSTRUCT', format: 'nquads', graph }, maxChars);
      assert.equal(answer.text, whole);
      assert.ok(whole.split('\n').every((line) => line === '' || line.endsWith(` <${graph}> .`)));
      assert.equal(answer.passed, answer.chunks);
    });
  }

  it('writes, rather than passes, the chunks mcp-ld writes otherwise: escapes, blank nodes, directions, triple terms', async () => {
    const other = new oxigraph.Store();
    const g = namedNode(graph);
    escapedValues.forEach((value, i) =>
      other.add(quad(namedNode(`urn:s:${i}`), namedNode('urn:p'), literal(value), g)),
    );
    other.add(quad(blankNode('x'), namedNode('urn:p'), blankNode('y'), g));
    for (let i = 0; i < escapedValues.length + 1; i++) {
      const subject = i < escapedValues.length ? `<urn:s:${i}>` : '?s';
      const query = `CONSTRUCT { ${subject} ?p ?o } WHERE { GRAPH ?g { ${subject} ?p ?o } }`;
      const text = other.query(query, { results_format: 'application/n-triples' }) as string;
      const answer = await streamed(text, { form: 'CONSTRUCT', format: 'ntriples' }, 1);
      assert.equal(answer.passed, 0, text);
    }
    for (const [form, query, format] of [
      ['SELECT', 'SELECT ?t WHERE { BIND(STRLANGDIR("a", "en", "ltr") AS ?t) }', 'json'],
      ['SELECT', 'SELECT ?t WHERE { BIND(<<( <urn:a> <urn:b> <urn:c> )>> AS ?t) }', 'json'],
      ['CONSTRUCT', 'CONSTRUCT { <urn:a> <urn:b> ?t } WHERE { BIND(STRLANGDIR("a", "en", "rtl") AS ?t) }', 'ntriples'],
    ] as const) {
      const text = other.query(query, {
        results_format: form === 'SELECT' ? 'application/sparql-results+json' : 'application/n-triples',
      }) as string;
      const chunk = new ResultChunker(form, text).next(1_000)!;
      const request = {
        form,
        variables: ['t'],
        data: Buffer.from(chunk),
        format,
        after: false,
        blankNodePrefix: 'b_',
      } as ChunkRequest;
      assert.equal(passThrough(request), undefined, query);
    }
  });

  it('passes SPARQL JSON through only when asked as SPARQL JSON, N-Triples only as N-Triples or N-Quads', () => {
    const rows = new ResultChunker('SELECT', selectText).next(10_000_000)!;
    for (const format of ['xml', 'csv', 'tsv', 'jsonl'] as ResultFormat[]) {
      const request = { form: 'SELECT', variables: ['s', 'p', 'o'], data: Buffer.from(rows), format, after: false };
      assert.equal(passThrough({ ...request, blankNodePrefix: 'b_' } as ChunkRequest), undefined, format);
    }
  });
});
