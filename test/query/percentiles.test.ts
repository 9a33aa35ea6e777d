import assert from 'node:assert/strict';
import { DataFactory } from 'n3';
import { isMcpLdError } from '../../src/core/problem.js';
import {
  applyPercentiles,
  nearestRank,
  parsePercentiles,
  readQuery,
  runNamedQuery,
  type PercentileDeclaration,
} from '../../src/query/index.js';
import { storeOfLatencies } from '../helpers/latency-store.js';
import { percentileOf } from '../helpers/rows.js';

const { literal } = DataFactory;

function fails(run: () => unknown, code: string, detail: RegExp): void {
  assert.throws(run, (error: unknown) => isMcpLdError(error) && error.code === code && detail.test(error.detail ?? ''));
}

describe('query: percentiles declared by @percentiles', () => {
  it('takes the nearest rank: the smallest value with at least ceil(p × n) values at most it', () => {
    // Every percent from 0.001 to 100 on lists of 1 to 40 values (with repeats), against the definition itself.
    for (let n = 1; n <= 40; n++) {
      const values = Array.from({ length: n }, (_, i) => (i * 37) % 11);
      const sorted = [...values].sort((a, b) => a - b);
      for (const percent of [0.001, 1, 7, 25, 33.333, 50, 90, 95, 99, 99.9, 100]) {
        assert.equal(
          nearestRank(sorted, Math.round(percent * 1000)),
          percentileOf(values, percent),
          `n=${n} p=${percent}`,
        );
      }
    }
    assert.equal(nearestRank([], 50_000), undefined);
    // p × n exactly an integer: that rank, not the next (7% of 100 is the 7th value, though 0.07 × 100 > 7 in floating
    // point).
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(nearestRank(hundred, 7_000), 7);
    assert.equal(nearestRank(hundred, 95_000), 95);
  });

  it('reads the declaration, and says what is wrong with a bad one', () => {
    assert.deepEqual(parsePercentiles('latencies p50Ms=50 p999Ms=99.9'), {
      list: 'latencies',
      columns: [
        { name: 'p50Ms', milliPercent: 50_000 },
        { name: 'p999Ms', milliPercent: 99_900 },
      ],
    });
    assert.match(parsePercentiles('latencies') as string, /expected "@percentiles LIST NAME=PERCENT…"/);
    assert.match(parsePercentiles('latencies p50') as string, /"p50" is not NAME=PERCENT/);
    assert.match(parsePercentiles('latencies p0=0') as string, /above 0 and at most 100, not 0/);
    assert.match(parsePercentiles('latencies p=100.5') as string, /at most 100, not 100.5/);
    assert.match(parsePercentiles('latencies a=50 a=90') as string, /named twice/);
  });

  it('refuses a query file whose @percentiles does not fit its SELECT', () => {
    const header = '# @title T\n# @description D\n';
    const query =
      'SELECT ?g (GROUP_CONCAT(STR(?ms)) AS ?list) WHERE { ?r mld:latencyMs ?ms ; mld:inSession ?g } GROUP BY ?g';
    readQuery('good.rq', `${header}# @percentiles list p50=50\n${query}`, true);
    fails(
      () => readQuery('bad.rq', `${header}# @percentiles other p50=50\n${query}`, true),
      'query.named-invalid',
      /names \?other, which the query does not select/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @percentiles list g=50\n${query}`, true),
      'query.named-invalid',
      /column \?g is also selected/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @percentiles list p50=50\nSELECT * WHERE { ?s ?p ?list }`, true),
      'query.named-invalid',
      /names the variables it selects/,
    );
    fails(
      () => readQuery('bad.rq', `${header}# @percentiles list p50=50\n# @percentiles list p90=90\n${query}`, true),
      'query.header-invalid',
      /declared twice/,
    );
    // A query file of a user's: the same checks, as a 400.
    fails(
      () => readQuery('mine.rq', `# @percentiles nope p50=50\n${query}`),
      'query.header-invalid',
      /does not select/,
    );
  });

  it('replaces the list column by the percentile columns, in its place, typed; an empty list gives none', () => {
    const declaration: PercentileDeclaration[] = [
      {
        list: 'list',
        columns: [
          { name: 'p50', milliPercent: 50_000 },
          { name: 'p99', milliPercent: 99_000 },
        ],
      },
    ];
    const result = applyPercentiles(
      {
        form: 'SELECT',
        variables: ['g', 'list', 'n'],
        rows: [
          new Map([
            ['g', literal('a')],
            ['list', literal('3 1.5 20 2')],
            ['n', literal('4')],
          ]),
          new Map([
            ['g', literal('b')],
            ['list', literal('')],
          ]),
          new Map([['g', literal('c')]]),
        ],
      },
      declaration,
    );
    assert.ok(result.form === 'SELECT');
    assert.deepEqual(result.variables, ['g', 'p50', 'p99', 'n']);
    assert.deepEqual(
      result.rows.map((row) =>
        Object.fromEntries(
          [...row].map(([k, t]) => [
            k,
            `${t.value}^^${(t as { datatype: { value: string } }).datatype.value.split('#')[1]}`,
          ]),
        ),
      ),
      [
        { g: 'a^^string', n: '4^^string', p50: '2^^decimal', p99: '20^^decimal' },
        { g: 'b^^string' },
        { g: 'c^^string' },
      ],
    );
    assert.throws(
      () =>
        applyPercentiles(
          { form: 'SELECT', variables: ['list'], rows: [new Map([['list', literal('1 x 3')]])] },
          declaration,
          'q.rq',
        ),
      (error: unknown) =>
        isMcpLdError(error) && /q\.rq: \?list holds "x", which is not a number/.test(error.detail ?? ''),
    );
  });

  it('runs a query file with @percentiles over a store: the percentiles of what the store holds', async () => {
    const latencies = [12, 3, 3, 40, 7, 1000, 5, 8, 9, 11, 2, 6];
    const store = await storeOfLatencies(latencies);
    try {
      const query = readQuery(
        'mine.rq',
        '# @percentiles list p50=50 p90=90 p100=100\nSELECT (COUNT(*) AS ?n) (GROUP_CONCAT(STR(?ms); separator=" ") AS ?list) WHERE { ?r mld:latencyMs ?ms }',
      );
      const answer = await runNamedQuery(store, query);
      assert.ok(answer.form === 'SELECT');
      assert.deepEqual(answer.variables, ['n', 'p50', 'p90', 'p100']);
      const row = answer.rows[0]!;
      assert.deepEqual(
        ['p50', 'p90', 'p100'].map((v) => Number(row.get(v)!.value)),
        [percentileOf(latencies, 50), percentileOf(latencies, 90), 1000],
      );
      assert.deepEqual([percentileOf(latencies, 50), percentileOf(latencies, 90)], [7, 40]);
    } finally {
      await store.close();
    }
  });
});
