// SPARQL answers of a real `mcp-ld serve` (/sparql, every capture of the corpus ingested) read through SPARQLWrapper,
// the common Python client, in every result format it asks for: SELECT as SPARQL JSON, XML, CSV and TSV, ASK as
// JSON and XML (CSV and TSV results are SELECT's only);
// CONSTRUCT and DESCRIBE as RDF/XML, Turtle, N3 and JSON-LD. Each must equal the answer of the same data queried
// in-process (EmbeddedStore.query). One Python process asks every query (test/conformance/sparql_client.py).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { packageRoot } from '../../src/core/paths.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import type { QueryResult } from '../../src/store/quad-store.js';
import { captureFiles } from '../helpers/corpus.js';
import { stop } from '../helpers/http-processes.js';
import { pythonWith, requireTools } from '../helpers/independent-tools.js';
import { runCli } from '../helpers/run-cli.js';
import { startService, type Service } from '../helpers/service.js';

const prefix = 'PREFIX jrpc: <http://json-rpc.org/ontology#> PREFIX mld: <https://w3id.org/mcp-ld/ns#> ';
const queries = [
  { name: 'methods', form: 'SELECT', sparql: `${prefix}SELECT ?m ?method WHERE { ?m jrpc:hasMethod ?method }` },
  { name: 'count', form: 'SELECT', sparql: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }' },
  { name: 'ask-true', form: 'ASK', sparql: `${prefix}ASK { ?m jrpc:hasMethod "tools/list" }` },
  { name: 'ask-false', form: 'ASK', sparql: `${prefix}ASK { ?m jrpc:hasMethod "no/such/method" }` },
  {
    name: 'construct',
    form: 'CONSTRUCT',
    sparql: `${prefix}CONSTRUCT { ?m jrpc:hasMethod ?method; mld:order ?order } WHERE { ?m jrpc:hasMethod ?method; mld:order ?order }`,
  },
] as const;

interface Answer {
  name: string;
  format: string;
  error?: string;
  rows?: string[];
  plainRows?: string[];
  boolean?: boolean;
  ntriples?: string[];
}

/**
 * A term as rdflib's n3() writes it, for the simple values of these queries (IRIs, strings without escapes, numbers).
 */
function n3(term: Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType !== 'Literal') return `_:${term.value}`;
  if (term.language) return `"${term.value}"@${term.language}`;
  return term.datatype.value === 'http://www.w3.org/2001/XMLSchema#string'
    ? `"${term.value}"`
    : `"${term.value}"^^<${term.datatype.value}>`;
}

/** The rows as sorted lines in the form of Python's json.dumps(row, sort_keys=True) (ASCII values only). */
function rows(result: QueryResult, plain: boolean): string[] {
  assert.equal(result.form, 'SELECT');
  const line = (row: Map<string, Term>) =>
    `{${[...row]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(plain ? v.value : n3(v))}`)
      .join(', ')}}`;
  return result.rows.map(line).sort();
}

describe('conformance: /sparql through SPARQLWrapper equals the in-process answers (SELECT, ASK, CONSTRUCT, DESCRIBE)', function () {
  this.timeout(600_000);
  const data = mkdtempSync(path.join(tmpdir(), 'mcp-ld-sparql-conformance-'));
  let python: string | undefined;
  let service: Service | undefined;
  let store: EmbeddedStore | undefined;
  let answers: Answer[] = [];
  const expected = new Map<string, QueryResult>();

  before(async function () {
    python = pythonWith(['rdflib', 'SPARQLWrapper']);
    requireTools(this, python ? [] : ['python3 with rdflib and SPARQLWrapper (python3-rdflib, python3-sparqlwrapper)']);
    for (const file of captureFiles()) {
      const ingested = await runCli(['ingest', file, '--data', data, '--quiet']);
      assert.equal(ingested.code, 0, ingested.stderr);
    }
    store = await EmbeddedStore.open({});
    for (const file of captureFiles()) {
      const converted = await runCli(['convert', file, '--format', 'nquads', '--quiet']);
      assert.equal(converted.code, 0, converted.stderr);
      await store.ingest(converted.stdout);
    }
    service = await startService(['--data', data]);
  });
  after(async () => {
    if (service) await stop(service.child);
    await store?.close();
    rmSync(data, { recursive: true, force: true });
  });

  it('asks every query in every format (one Python process)', async () => {
    const first = await fetch(
      `${service!.url}/sparql?query=${encodeURIComponent(`${prefix}SELECT ?m WHERE { ?m jrpc:hasMethod "tools/call" } ORDER BY ?m LIMIT 1`)}`,
      { headers: { accept: 'application/sparql-results+json' } },
    );
    const message = ((await first.json()) as { results: { bindings: { m: { value: string } }[] } }).results.bindings[0]!
      .m.value;
    const all = [...queries, { name: 'describe', form: 'DESCRIBE', sparql: `DESCRIBE <${message}>` }];
    const manifest = path.join(data, 'queries.json');
    writeFileSync(manifest, JSON.stringify({ queries: all }));
    const run = spawnSync(
      python!,
      [path.join(packageRoot, 'test', 'conformance', 'sparql_client.py'), `${service!.url}/sparql`, manifest],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(run.status, 0, run.stderr);
    answers = (JSON.parse(run.stdout) as { answers: Answer[] }).answers;
    for (const query of all) expected.set(query.name, await store!.query(query.sparql));
    assert.equal(answers.length, all.length * 4 - 2 * 2);
    assert.deepEqual(
      answers.filter((a) => a.error !== undefined),
      [],
    );
  });

  for (const name of ['methods', 'count', 'ask-true', 'ask-false', 'construct', 'describe']) {
    it(`${name}: every format SPARQLWrapper reads gives the in-process answer`, () => {
      const local = expected.get(name)!;
      const mine = answers.filter((a) => a.name === name);
      assert.equal(mine.length, local.form === 'ASK' ? 2 : 4);
      for (const answer of mine) {
        if (local.form === 'ASK') assert.equal(answer.boolean, local.boolean, answer.format);
        else if (local.form === 'SELECT') {
          if (answer.plainRows) assert.deepEqual(answer.plainRows, rows(local, true), answer.format);
          else assert.deepEqual(answer.rows, rows(local, false), answer.format);
          assert.ok(local.rows.length > 0);
        } else {
          const theirs: Quad[] = new Parser({ format: 'application/n-triples' }).parse(answer.ntriples!.join('\n'));
          assert.ok(local.quads.length > 0);
          assert.ok(
            isomorphic(theirs, local.quads),
            `${answer.format}: ${theirs.length} triples, in-process ${local.quads.length}`,
          );
        }
      }
    });
  }
});
