import assert from 'node:assert/strict';
import { DataFactory } from 'n3';
import { isMcpLdError } from '../../src/core/problem.js';
import {
  applyQuotients,
  exactQuotient,
  parseQuotient,
  readQuery,
  runNamedQuery,
  runQuery,
  type QuotientDeclaration,
} from '../../src/query/index.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { storeOfLatencies } from '../helpers/latency-store.js';

const { literal, namedNode } = DataFactory;
const xsd = (local: string) => namedNode(`http://www.w3.org/2001/XMLSchema#${local}`);

function fails(run: () => unknown, code: string, detail: RegExp): void {
  assert.throws(run, (error: unknown) => isMcpLdError(error) && error.code === code && detail.test(error.detail ?? ''));
}

/** Each row as { column: "value^^datatype" }. */
function plain(rows: readonly ReadonlyMap<string, import('@rdfjs/types').Term>[]): Record<string, string>[] {
  return rows.map((row) =>
    Object.fromEntries(
      [...row].map(([k, t]) => [
        k,
        `${t.value}^^${(t as { datatype: { value: string } }).datatype.value.split('#')[1]}`,
      ]),
    ),
  );
}

describe('query: quotients declared by @quotient', () => {
  it('divides as the embedded store divides: the same lexical form for every pair', async () => {
    // The store's own xsd:decimal division (18 decimal places, truncated, no trailing zeros) over integers and
    // decimals of both signs, against exactQuotient.
    const operands = [
      '0',
      '1',
      '2',
      '3',
      '7',
      '-7',
      '10',
      '287',
      '38',
      '1.5',
      '-0.25',
      '2501',
      '123456789.123',
      '0.001',
    ];
    const pairs = operands.flatMap((n) => operands.filter((d) => Number(d) !== 0).map((d) => [n, d] as const));
    const store = await EmbeddedStore.open({});
    try {
      const values = pairs.map(([n, d], i) => `(${i} ${n} ${d})`).join(' ');
      const answer = await runQuery(store, `SELECT ?i (?n / ?d AS ?q) WHERE { VALUES (?i ?n ?d) { ${values} } }`);
      assert.ok(answer.form === 'SELECT');
      assert.equal(answer.rows.length, pairs.length);
      for (const row of answer.rows) {
        const [n, d] = pairs[Number(row.get('i')!.value)]!;
        const q = row.get('q');
        // (The embedded store gives no quotient of an integer 0 by a decimal with a fraction: mcp-ld gives 0.)
        if (q === undefined && n === '0' && /\.\d*[1-9]/.test(d)) continue;
        assert.ok(q?.termType === 'Literal' && q.datatype.value.endsWith('#decimal'), `${n}/${d}`);
        assert.equal(exactQuotient(n, d), q.value, `${n}/${d}`);
      }
    } finally {
      await store.close();
    }
    assert.equal(exactQuotient('38', '287'), '0.132404181184668989');
    assert.equal(exactQuotient('4.0', '2'), '2');
    assert.equal(exactQuotient('-2', '3'), '-0.666666666666666666');
    assert.equal(exactQuotient('1', '0'), undefined);
    assert.equal(exactQuotient('1', '0.0'), undefined);
    assert.throws(() => exactQuotient('1E3', '2'), /not an integer or a decimal: "1E3"/);
  });

  it('reads the declaration, and says what is wrong with a bad one', () => {
    assert.deepEqual(parseQuotient('avgMs=totalMs/answered'), {
      name: 'avgMs',
      numerator: 'totalMs',
      denominator: 'answered',
    });
    assert.deepEqual(parseQuotient(' rate = failed / answered else 0 '), {
      name: 'rate',
      numerator: 'failed',
      denominator: 'answered',
      whenZero: 0n,
    });
    assert.match(parseQuotient('avgMs') as string, /expected "@quotient NAME=NUMERATOR\/DENOMINATOR"/);
    assert.match(parseQuotient('a=b/c else zero') as string, /expected/);
    assert.match(parseQuotient('a=b/a') as string, /three columns/);
  });

  it('refuses a query file whose @quotient does not fit its SELECT', () => {
    const header = '# @title T\n# @description D\n';
    const query =
      'SELECT ?g (SUM(?ms) AS ?total) (COUNT(*) AS ?n) WHERE { ?r mld:latencyMs ?ms ; mld:inSession ?g } GROUP BY ?g';
    assert.deepEqual(readQuery('good.rq', `${header}# @quotient avg=total/n\n${query}`, true).quotients, [
      { name: 'avg', numerator: 'total', denominator: 'n' },
    ]);
    fails(
      () => readQuery('bad.rq', `${header}# @quotient avg=total/count\n${query}`, true),
      'query.named-invalid',
      /@quotient avg names \?count, which the query does not select/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @quotient g=total/n\n${query}`, true),
      'query.named-invalid',
      /column \?g is also selected/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @quotient avg=total/n\nSELECT * WHERE { ?s ?total ?n }`, true),
      'query.named-invalid',
      /@quotient needs a SELECT that names the variables it selects/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @quotient avg=total/n\n# @quotient avg=n/total\n${query}`, true),
      'query.header-invalid',
      /declared twice/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @quotient avg total n\n${query}`, true),
      'query.header-invalid',
      /line 3: expected "@quotient NAME=NUMERATOR\/DENOMINATOR"/,
    );
    // A query file of a user's: the same checks, as a 400.
    fails(() => readQuery('mine.rq', `# @quotient avg=nope/n\n${query}`), 'query.header-invalid', /does not select/);
  });

  it('replaces the numerator by the quotient, in its place; a zero denominator gives the else value or none', () => {
    const rate: QuotientDeclaration[] = [{ name: 'rate', numerator: 'failed', denominator: 'n', whenZero: 0n }];
    const rows = [
      new Map([
        ['g', literal('a')],
        ['failed', literal('1', xsd('integer'))],
        ['n', literal('3', xsd('integer'))],
      ]),
      new Map([
        ['g', literal('b')],
        ['failed', literal('0', xsd('integer'))],
        ['n', literal('0', xsd('integer'))],
      ]),
      new Map([['g', literal('c')]]),
    ];
    const result = applyQuotients({ form: 'SELECT', variables: ['g', 'failed', 'n'], rows }, rate);
    assert.ok(result.form === 'SELECT');
    assert.deepEqual(result.variables, ['g', 'rate', 'n']);
    assert.deepEqual(plain(result.rows), [
      { g: 'a^^string', rate: '0.333333333333333333^^decimal', n: '3^^integer' },
      { g: 'b^^string', rate: '0^^integer', n: '0^^integer' },
      { g: 'c^^string' },
    ]);
    const withoutElse = applyQuotients({ form: 'SELECT', variables: ['g', 'failed', 'n'], rows }, [
      { name: 'rate', numerator: 'failed', denominator: 'n' },
    ]);
    assert.ok(withoutElse.form === 'SELECT');
    assert.deepEqual(plain(withoutElse.rows)[1], { g: 'b^^string', n: '0^^integer' });
    assert.throws(
      () =>
        applyQuotients(
          {
            form: 'SELECT',
            variables: ['failed', 'n'],
            rows: [
              new Map([
                ['failed', literal('x')],
                ['n', literal('1')],
              ]),
            ],
          },
          rate,
          'q.rq',
        ),
      (error: unknown) =>
        isMcpLdError(error) &&
        error.code === 'query.quotient-invalid' &&
        /q\.rq: \?failed holds Literal x, not an integer or a decimal/.test(error.detail ?? ''),
    );
  });

  it('runs a query file with @quotient over a store: the mean of what the store holds, as AVG gives it', async () => {
    const latencies = [12, 3, 3, 40, 7, 1000, 5];
    const store = await storeOfLatencies(latencies);
    try {
      const query = readQuery(
        'mine.rq',
        '# @quotient avgMs=totalMs/n\nSELECT (COUNT(*) AS ?n) (SUM(?ms) AS ?totalMs) WHERE { ?r mld:latencyMs ?ms }',
      );
      const answer = await runNamedQuery(store, query);
      assert.ok(answer.form === 'SELECT');
      assert.deepEqual(answer.variables, ['n', 'avgMs']);
      const average = await runQuery(store, 'SELECT (AVG(?ms) AS ?avg) WHERE { ?r mld:latencyMs ?ms }');
      assert.ok(average.form === 'SELECT');
      assert.equal(answer.rows[0]!.get('avgMs')!.value, '152.857142857142857142');
      assert.ok(answer.rows[0]!.get('avgMs')!.equals(average.rows[0]!.get('avg')!));
    } finally {
      await store.close();
    }
  });
});
