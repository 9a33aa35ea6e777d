// One engine of the store benchmark's query comparison, run as a child process so that its peak RSS is its own:
// loads an N-Quads file into mcp-ld's embedded store (memory only) or into an N3.Store, or opens mcp-ld's remote store
// on a SPARQL endpoint already loaded (credentials from MCPLD_STORE_USER / MCPLD_STORE_PASSWORD), then runs the named
// queries (prepared by src/query, default graph = the union of the session graphs) and reports one JSON line per step
// on stdout: `loaded`, one `query` per named query, `done` with the peak RSS. Started by bench/store-queries.ts.
// On mcp-ld's store, a named query that declares @per-session is also timed as `mcp-ld serve` answers it: from its
// sessions' answers, kept (made after a first call, before the timed runs) and merged.
//   node dist/bench/store-engine.js --engine mcp-ld|comunica|remote [--nquads FILE | --store URL] --queries JSON
//        [--runs N] [--cap-ms MS]
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { RemoteStore } from '../src/store/remote-store.js';
import type { QuadStore } from '../src/store/quad-store.js';
import {
  planAnswer,
  parseQuery,
  NamedQueries,
  runNamedQueryText,
  runQuery,
  SessionPartials,
  type NamedQuery,
  type ParameterValues,
} from '../src/query/index.js';

export interface QueryCase {
  name: string;
  values: ParameterValues;
}

export type EngineReport =
  | { type: 'loaded'; seconds: number; quads: number; rssMiB: number }
  | {
      type: 'query';
      name: string;
      times: number[];
      rows: number;
      capped: boolean;
      error?: string;
      /** mcp-ld, a query kept per session: the times and rows of its answers as `mcp-ld serve` gives them. */
      kept?: { times: number[]; rows: number };
    }
  | { type: 'done'; peakRssMiB: number };

interface Engine {
  /** Loads the N-Quads file, read in pieces (neither engine holds the whole text); the number of quads loaded. */
  load(file: string): Promise<number>;
  /**
   * Runs the query to its last row (mcp-ld: with the columns the named query's header computes, as the API and the
   * CLI give them); the number of rows, or undefined when it ran past `capMs` and was stopped.
   */
  run(sparql: string, capMs: number, query: NamedQuery): Promise<number | undefined>;
  /** mcp-ld's store only: the answer from the sessions' answers, once they are kept; its rows. */
  runKept?(query: NamedQuery, values: ParameterValues): Promise<number>;
  /** Resolves when what runKept asked for is kept. */
  settled?(): Promise<void>;
}

function report(line: EngineReport): void {
  process.stdout.write(JSON.stringify(line) + '\n');
}

/** A query through mcp-ld's store as the API and the CLI run it; the rows, or undefined when it ran past `capMs`. */
async function runNamed(
  store: QuadStore,
  sparql: string,
  capMs: number,
  query: NamedQuery,
): Promise<number | undefined> {
  try {
    const plan = planAnswer(query, parseQuery(sparql));
    const result = plan.complete(await runQuery(store, plan.sent, { timeoutMs: capMs }));
    return result.form === 'SELECT' ? result.rows.length : 1;
  } catch (error) {
    if ((error as { code?: string }).code === 'query.timeout') return undefined;
    throw error;
  }
}

/** mcp-ld's remote store on an endpoint loaded beforehand (by `mcp-ld ingest --store`): nothing to load here. */
async function remoteEngine(url: string): Promise<Engine> {
  const store = await RemoteStore.open({
    queryUrl: url,
    ...(process.env['MCPLD_STORE_USER'] !== undefined ? { user: process.env['MCPLD_STORE_USER'] } : {}),
    ...(process.env['MCPLD_STORE_PASSWORD'] !== undefined ? { password: process.env['MCPLD_STORE_PASSWORD'] } : {}),
  });
  return {
    load: async () => 0,
    run: (sparql, capMs, query) => runNamed(store, sparql, capMs, query),
  };
}

/** mcp-ld's store as a user gets it: the worker thread, a query given as text, results as SPARQL JSON. */
async function mcpLdEngine(): Promise<Engine> {
  const store = await EmbeddedStore.open({});
  const partials = new SessionPartials(store);
  return {
    async runKept(query, values) {
      const answer = await runNamedQueryText(store, query, values, {}, partials);
      return (JSON.parse(new TextDecoder().decode(answer.data)) as { results: { bindings: unknown[] } }).results
        .bindings.length;
    },
    settled: () => partials.settled(),
    async load(file) {
      // In pieces of about 8 MB cut at line ends, as a batched ingest gives them.
      const fd = openSync(file, 'r');
      const buffer = Buffer.alloc(8 * 1024 * 1024);
      let rest = '';
      try {
        for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
          const text = rest + buffer.toString('utf8', 0, read);
          const end = text.lastIndexOf('\n') + 1;
          rest = text.slice(end);
          if (end > 0) await store.ingest(text.slice(0, end));
        }
        if (rest.trim()) await store.ingest(rest + '\n');
      } finally {
        closeSync(fd);
      }
      return store.size();
    },
    run: (sparql, capMs, query) => runNamed(store, sparql, capMs, query),
  };
}

/** The baseline: Comunica over an N3.Store, the union of the named graphs as default graph (`unionDefaultGraph`). */
async function comunicaEngine(): Promise<Engine> {
  const { Store, StreamParser } = await import('n3');
  const { QueryEngine } = await import('@comunica/query-sparql-rdfjs');
  const store = new Store();
  const engine = new QueryEngine();
  const context = { sources: [store], unionDefaultGraph: true };
  return {
    async load(file) {
      const parser = new StreamParser({ format: 'N-Quads' });
      await new Promise<void>((resolve, reject) => {
        parser.on('data', (quad) => store.addQuad(quad));
        parser.on('error', reject);
        parser.on('end', () => resolve());
        createReadStream(file).on('error', reject).pipe(parser);
      });
      // The engine's first query pays for its own start-up: not a named query's cost.
      await (await engine.queryBindings('SELECT * WHERE { ?s ?p ?o } LIMIT 1', context)).toArray();
      return store.size;
    },
    async run(sparql, capMs) {
      const stream = await engine.queryBindings(sparql, context);
      return new Promise<number | undefined>((resolve, reject) => {
        let rows = 0;
        const timer = setTimeout(() => {
          stream.destroy();
          resolve(undefined);
        }, capMs);
        stream.on('data', () => (rows += 1));
        stream.on('error', (error: Error) => {
          clearTimeout(timer);
          reject(error);
        });
        stream.on('end', () => {
          clearTimeout(timer);
          resolve(rows);
        });
      });
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string' },
      nquads: { type: 'string' },
      store: { type: 'string' },
      queries: { type: 'string' },
      runs: { type: 'string', default: '5' },
      'cap-ms': { type: 'string', default: '60000' },
      // Runs past the first only while a run takes less than this (a slow baseline is run once).
      'repeat-under-ms': { type: 'string', default: '5000' },
    },
  });
  const cases = JSON.parse(values.queries!) as QueryCase[];
  const runs = Number(values.runs);
  const capMs = Number(values['cap-ms']);
  const repeatUnder = Number(values['repeat-under-ms']);
  const engine =
    values.engine === 'comunica'
      ? await comunicaEngine()
      : values.engine === 'remote'
        ? await remoteEngine(values.store!)
        : await mcpLdEngine();
  const named = new NamedQueries();

  const started = performance.now();
  const quads = await engine.load(values.nquads!);
  report({
    type: 'loaded',
    seconds: (performance.now() - started) / 1000,
    quads,
    rssMiB: process.memoryUsage().rss / 1048576,
  });

  for (const { name, values: parameters } of cases) {
    const sparql = named.prepare(name, parameters).text;
    const times: number[] = [];
    let rows = 0;
    let capped = false;
    let slow = false;
    try {
      // mcp-ld: one untimed run first (the query's first parse and plan); the baseline is timed from its first run.
      // On the remote store a first run past --repeat-under-ms is the one timed run (a slow query is run once).
      if (values.engine !== 'comunica') {
        const t0 = performance.now();
        const n = await engine.run(sparql, capMs, named.get(name));
        const ms = performance.now() - t0;
        if (n === undefined) capped = true;
        else if (values.engine === 'remote' && ms >= repeatUnder) {
          times.push(ms);
          rows = n;
          slow = true;
        }
      }
      while (!capped && !slow && times.length < runs) {
        const t0 = performance.now();
        const n = await engine.run(sparql, capMs, named.get(name));
        const ms = performance.now() - t0;
        if (n === undefined) {
          capped = true;
          break;
        }
        times.push(ms);
        rows = n;
        if (values.engine !== 'mcp-ld' && ms >= repeatUnder) break;
      }
      const query = named.get(name);
      let kept: { times: number[]; rows: number } | undefined;
      if (engine.runKept && engine.settled && query.perSession) {
        await engine.runKept(query, parameters);
        await engine.settled();
        kept = { times: [], rows: 0 };
        while (kept.times.length < runs) {
          const t0 = performance.now();
          kept.rows = await engine.runKept(query, parameters);
          kept.times.push(performance.now() - t0);
        }
      }
      report({ type: 'query', name, times, rows, capped, ...(kept ? { kept } : {}) });
      if (capped && values.engine === 'comunica') {
        // A stopped Comunica query may still hold work in its iterators: the rest run in a fresh process.
        break;
      }
    } catch (error) {
      report({
        type: 'query',
        name,
        times,
        rows,
        capped,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  report({ type: 'done', peakRssMiB: process.resourceUsage().maxRSS / 1024 });
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/store-engine failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
