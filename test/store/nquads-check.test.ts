import assert from 'node:assert/strict';
import { checkNQuads, splitNQuads } from '../../src/store/nquads-check.js';
import { queryForm } from '../../src/store/query-form.js';
import { decodeFrameHeader, encodeFrame, frameHeaderBytes, payloadMatches } from '../../src/store/frames.js';
import { isMcpLdError } from '../../src/core/problem.js';
import { Lifter } from '../../src/lift/lifter.js';
import { loadSchema } from '../../src/schema/index.js';
import { captureRecords, captures } from '../helpers/corpus.js';
import { liftedText } from '../helpers/lifted-text.js';

function lineOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    assert.ok(isMcpLdError(error));
    assert.equal(error.code, 'store.invalid-nquads');
    return error.line;
  }
  return undefined;
}

describe('store: N-Quads checks, query forms and journal frames', () => {
  it("accepts every capture of the corpus as the lifter writes it, with the lifter's counts (IngestOptions.lifted)", () => {
    for (const { file } of captures) {
      const { text, quads, graphs } = liftedText(new Lifter(loadSchema()), captureRecords(file));
      assert.ok(quads > 0, file);
      assert.deepEqual(checkNQuads(text), { quads, graphs }, file);
    }
  });

  it('accepts W3C N-Quads with named graphs: escapes, language tags, datatypes, blank nodes, comments, CRLF', () => {
    const text = [
      '# a comment',
      '',
      '<urn:a><urn:b>"tab\\tquote\\" \\u00e9"@en-GB<urn:g>.',
      '_:b1 <urn:b> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <urn:g> . # trailing comment',
      '<urn:a> <urn:b> _:b.2 <urn:h\\u0041> .\r',
      '',
    ].join('\n');
    assert.deepEqual(checkNQuads(text), { quads: 3, graphs: ['urn:g', 'urn:hA'] });
  });

  it('names the first bad line: default-graph triples, relative IRIs, bad literals, blank-node graphs', () => {
    const good = '<urn:a> <urn:b> "c" <urn:g> .\n';
    assert.equal(
      lineOf(() => checkNQuads(`${good}<urn:a> <urn:b> "c" .\n`)),
      2,
    );
    assert.equal(
      lineOf(() => checkNQuads(`${good}${good}<a> <urn:b> "c" <urn:g> .\n`)),
      3,
    );
    assert.equal(
      lineOf(() => checkNQuads(`<urn:a> <urn:b> "c <urn:g> .\n`)),
      1,
    );
    assert.equal(
      lineOf(() => checkNQuads(`<urn:a> <urn:b> "c"@ <urn:g> .\n`)),
      1,
    );
    assert.equal(
      lineOf(() => checkNQuads(`<urn:a> <urn:b> "c" _:g .\n`)),
      1,
    );
    assert.equal(
      lineOf(() => checkNQuads(`<urn:a> <urn:b> "c" <urn:g>\n`)),
      1,
    );
    assert.equal(
      lineOf(() => checkNQuads(`<urn:a b> <urn:b> "c" <urn:g> .\n`)),
      1,
    );
  });

  it('splits a batch into N-Triples per graph', () => {
    const split = splitNQuads(
      '<urn:a> <urn:b> "1" <urn:g1> .\n<urn:a> <urn:b> "2" <urn:g2> .\n<urn:a> <urn:b> "3" <urn:g1> .\n',
    );
    assert.equal(split.quads, 3);
    assert.deepEqual(
      [...split.triples],
      [
        ['urn:g1', ['<urn:a> <urn:b> "1" .', '<urn:a> <urn:b> "3" .']],
        ['urn:g2', ['<urn:a> <urn:b> "2" .']],
      ],
    );
  });

  it('tells the query form after the prologue and refuses updates', () => {
    assert.equal(queryForm('PREFIX x: <urn:x#> # comment\nBASE <urn:b>\n select * { ?s ?p ?o }'), 'SELECT');
    assert.equal(queryForm('ASK {}'), 'ASK');
    assert.equal(queryForm('PREFIX : <urn:> CONSTRUCT WHERE { ?s ?p ?o }'), 'CONSTRUCT');
    assert.equal(queryForm('describe <urn:a>'), 'DESCRIBE');
    assert.throws(() => queryForm('DELETE WHERE { ?s ?p ?o }'), /SPARQL update/);
    assert.throws(() => queryForm(''), /not a SPARQL query/);
  });

  it('frames carry type, sequence number and payload under a checksum that catches any flipped byte', () => {
    const frame = encodeFrame('quads', 42, Buffer.from('payload'));
    const header = frame.subarray(0, frameHeaderBytes);
    const decoded = decodeFrameHeader(header);
    assert.ok(decoded.ok);
    if (!decoded.ok) return;
    assert.deepEqual([decoded.type, decoded.seq, decoded.length], ['quads', 42, 7]);
    assert.ok(payloadMatches(header, frame.subarray(frameHeaderBytes), decoded.crc));
    for (let i = 4; i < frame.length; i++) {
      const damaged = Buffer.from(frame);
      damaged[i] ^= 0x01;
      const check = decodeFrameHeader(damaged.subarray(0, frameHeaderBytes));
      assert.ok(
        !check.ok ||
          check.length !== 7 ||
          !payloadMatches(damaged.subarray(0, frameHeaderBytes), damaged.subarray(frameHeaderBytes), check.crc),
        `byte ${i}`,
      );
    }
  });
});
