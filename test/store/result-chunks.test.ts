// The cutting of a store's answer into chunks of whole rows (result-chunks.ts): every row once, in order, whatever
// the chunk size and whatever the literals hold (brackets, commas, quotes, escapes), for compact and indented JSON and
// for N-Triples.
import assert from 'node:assert/strict';
import { ResultChunker } from '../../src/store/result-chunks.js';
import { solutionMarker, withoutSolutionMarkers } from '../../src/store/result-limits.js';

const tricky = ['},{"', '] }', '"},{"', '{[', 'plain', '\\', '"}]}', '', 'a\nb', '\\"'];

function selectText(rows: Record<string, unknown>[], indent?: number): string {
  return JSON.stringify({ head: { vars: ['s', 'o'] }, results: { bindings: rows } }, null, indent);
}

function allRows(chunker: ResultChunker, maxChars: number): unknown[] {
  const rows: unknown[] = [];
  for (let chunk = chunker.next(maxChars); chunk !== undefined; chunk = chunker.next(maxChars))
    rows.push(...(JSON.parse(chunk) as unknown[]));
  return rows;
}

describe('store: an answer cut into chunks of whole rows', () => {
  const rows = tricky.flatMap((value, i) => [
    { s: { type: 'uri', value: `urn:x:${i}` }, o: { type: 'literal', value } },
    {},
    {
      o: {
        type: 'triple',
        value: {
          subject: { type: 'bnode', value: `b${i}` },
          predicate: { type: 'uri', value: 'urn:p' },
          object: { type: 'literal', value: '[{' },
        },
      },
    },
  ]);

  for (const indent of [undefined, 2]) {
    for (const maxChars of [1, 40, 200, 1_000_000]) {
      it(`gives every row of a SELECT once, in order (${indent ? 'indented' : 'compact'} JSON, chunks of ${maxChars} characters)`, () => {
        const chunker = new ResultChunker('SELECT', selectText(rows, indent));
        assert.deepEqual(chunker.head, { form: 'SELECT', variables: ['s', 'o'] });
        assert.deepEqual(allRows(chunker, maxChars), rows);
      });
    }
  }

  it('gives a SELECT with no rows as no rows, and its variables', () => {
    const chunker = new ResultChunker('SELECT', selectText([]));
    assert.deepEqual(chunker.head.variables, ['s', 'o']);
    assert.deepEqual(allRows(chunker, 10), []);
  });

  it('cuts N-Triples at line ends only', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `<urn:s:${i}> <urn:p> "line ${i} with \\n and ." .\n`);
    for (const maxChars of [1, 30, 100, 10_000]) {
      const chunker = new ResultChunker('CONSTRUCT', lines.join(''));
      const chunks: string[] = [];
      for (let chunk = chunker.next(maxChars); chunk !== undefined; chunk = chunker.next(maxChars)) chunks.push(chunk);
      assert.ok(chunks.every((chunk) => chunk.endsWith('\n')));
      assert.equal(chunks.join(''), lines.join(''));
      if (maxChars <= 30) assert.equal(chunks.length, lines.length);
    }
  });

  it("drops a bounded CONSTRUCT's marker triples from each chunk, and gives no empty chunk for lines all markers", () => {
    const marker = (i: number) => `_:m${i} <${solutionMarker}> "1" .\n`;
    const lines = [marker(0), marker(1)];
    for (let i = 0; i < 30; i++) lines.push(`<urn:s:${i}> <urn:p> "${i}" .\n`, marker(i + 2));
    for (let i = 0; i < 5; i++) lines.push(marker(100 + i));
    const text = lines.join('');
    for (const maxChars of [1, 30, 100, 10_000]) {
      const chunker = new ResultChunker('CONSTRUCT', text, true);
      const chunks: string[] = [];
      for (let chunk = chunker.next(maxChars); chunk !== undefined; chunk = chunker.next(maxChars)) chunks.push(chunk);
      assert.ok(chunks.every((chunk) => chunk.length > 0 && chunk.endsWith('\n') && !chunk.includes(solutionMarker)));
      assert.equal(chunks.join(''), withoutSolutionMarkers(text));
      assert.equal(chunks.join('').split('\n').length - 1, 30);
    }
  });
});
