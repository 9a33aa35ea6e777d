// What the tests of answers kept per session (src/query/session-partials.ts) share, on either store: an answer as
// lines of terms, a store that counts the queries it is asked, and the kept answer of a query once it is made.
import assert from 'node:assert/strict';
import type { Term } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import type { NamedQuery, ParameterValues, SessionPartials } from '../../src/query/index.js';
import type { QueryOptions, QueryResult, QuadStore } from '../../src/store/quad-store.js';

/**
 * Each row as one line of its terms, in the answer's order; the items of `lists` (space-separated lists, which come in
 * any order) sorted.
 */
export function lines(result: QueryResult | undefined, lists: ReadonlySet<string> = new Set()): string[] {
  assert.ok(result && result.form === 'SELECT', 'a SELECT answer');
  const term = (t: Term | undefined) =>
    t === undefined
      ? '-'
      : t.termType === 'Literal'
        ? `"${t.value}"${t.language ? `@${t.language}` : `^^${t.datatype.value}`}`
        : `${t.termType}:${t.value}`;
  const value = (v: string, t: Term | undefined) =>
    lists.has(v) && t ? DataFactory.literal(t.value.split(' ').sort().join(' ')) : t;
  return result.rows.map((row) => result.variables.map((v) => `${v}=${term(value(v, row.get(v)))}`).join(' | '));
}

/** The columns of `query` that are space-separated lists in any order (merged by concat or union). */
export function listColumns(query: NamedQuery): Set<string> {
  return new Set([...query.perSession!.merged].filter(([, op]) => op === 'concat' || op === 'union').map(([c]) => c));
}

/** The store, counting the queries it is asked: over one session's graph (a dataset), or over the union. */
export function counted(store: QuadStore): { store: QuadStore; perSession: () => number; whole: () => number } {
  let perSession = 0;
  let whole = 0;
  const count = (options?: QueryOptions) => (options?.dataset ? perSession++ : whole++);
  const wrapper = Object.create(store) as QuadStore;
  Object.assign(wrapper, {
    query: (sparql: string, options?: QueryOptions) => (count(options), store.query(sparql, options)),
    queryText: (sparql: string, options?: QueryOptions) => (count(options), store.queryText(sparql, options)),
  });
  return { store: wrapper, perSession: () => perSession, whole: () => whole };
}

/** The kept answer of `query` (made first, then asked again), as the store would give it (no computed columns). */
export async function keptAnswer(partials: SessionPartials, query: NamedQuery, values: ParameterValues = {}) {
  let answer = await partials.answer(query, values);
  for (let tries = 0; answer === undefined && tries < 3; tries++) {
    await partials.settled();
    answer = await partials.answer(query, values);
  }
  assert.ok(answer, `${query.name}: the sessions' answers are kept`);
  return answer;
}

/**
 * GET `url` (a named query) of a service on `store` until an answer comes with no whole query asked of the store, that
 * is from the sessions' answers it keeps; checks it is the first answer byte for byte, and has rows.
 */
export async function assertKeptResponse(store: QuadStore, url: string): Promise<void> {
  const watched = counted(store);
  const app = await buildServer(readServiceConfig({}, {}), { logger: false, store: watched.store });
  try {
    const get = () => app.inject({ url, headers: { accept: 'application/json' } });
    const first = await get();
    assert.equal(first.statusCode, 200, first.body);
    let keptBody: string | undefined;
    for (let tries = 0; tries < 200 && keptBody === undefined; tries++) {
      const whole = watched.whole();
      const again = await get();
      if (watched.whole() === whole) keptBody = again.body;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(keptBody !== undefined, 'an answer came from the kept answers, with no whole query');
    assert.equal(keptBody, first.body);
    assert.ok((JSON.parse(first.body) as unknown[]).length > 0);
  } finally {
    await app.close();
  }
}
