// Every output format of `mcp-ld convert` (N-Quads, TriG, Turtle, JSON-LD) and of `POST /convert` in RDF/XML, on
// every capture of the corpus, read by tools nobody here wrote: rapper parses each (but JSON-LD, which raptor 2.0.15
// does not read) with as many triples as the N-Quads have; rdflib parses each and finds it isomorphic to the N-Quads
// (graph by graph for datasets). One Python process checks the whole set (test/conformance/rdf_checks.py).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { packageRoot } from '../../src/core/paths.js';
import { captureFiles } from '../helpers/corpus.js';
import { hasCommand, jenaClassPath, pythonWith, requireTools } from '../helpers/independent-tools.js';
import { runCli } from '../helpers/run-cli.js';

const cliFormats = ['nquads', 'trig', 'turtle', 'jsonld'] as const;
type Format = (typeof cliFormats)[number] | 'rdfxml';
const formats: readonly Format[] = [...cliFormats, 'rdfxml'];
const rapperSyntax: Partial<Record<Format, string>> = {
  nquads: 'nquads',
  trig: 'trig',
  turtle: 'turtle',
  rdfxml: 'rdfxml',
};
/**
 * The formats Jena's riot reads here (its JSON-LD reader, Titanium in Jena 4.5.0, reads none of mcp-ld's JSON-LD: 0
 * quads, "1 errors", no message).
 */
const riotSyntax: Partial<Record<Format, string>> = {
  nquads: 'N-Quads',
  trig: 'TriG',
  turtle: 'Turtle',
  rdfxml: 'RDF/XML',
};

interface RdflibResult {
  name: string;
  format: Format;
  parsed: boolean;
  triples: number;
  isomorphic: boolean;
  detail: string;
}

describe('conformance: every output format, read by rapper and rdflib (every capture of the corpus)', function () {
  this.timeout(600_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-conformance-'));
  const file = (capture: string, format: Format) => path.join(dir, `${path.basename(capture, '.jsonl')}.${format}`);
  let python: string | undefined;
  let rdflibResults: RdflibResult[] = [];
  /** `riot --count` lines by format: `file:///…/<capture>.<format> : Quads = 1,234` (one java run per format). */
  const riotCounts = new Map<string, string>();

  before(async function () {
    python = pythonWith(['rdflib']);
    const jena = jenaClassPath();
    requireTools(this, [
      ...(hasCommand('rapper') ? [] : ['rapper (raptor2-utils)']),
      ...(python ? [] : ['python3 with rdflib (python3-rdflib)']),
      ...(jena ? [] : ['Apache Jena (libapache-jena-java, default-jdk-headless)']),
    ]);
    const app: FastifyInstance = await buildServer(readServiceConfig({}, { MCPLD_BODY_LIMIT: '50000000' }), {
      logger: false,
    });
    try {
      for (const capture of captureFiles()) {
        for (const format of cliFormats) {
          const result = await runCli(['convert', capture, '--format', format, '--quiet']);
          assert.equal(result.code, 0, result.stderr);
          writeFileSync(file(capture, format), result.stdout);
        }
        const response = await app.inject({
          method: 'POST',
          url: '/convert',
          headers: { 'content-type': 'application/x-ndjson', accept: 'application/rdf+xml' },
          payload: readFileSync(capture),
        });
        assert.equal(response.statusCode, 200, response.body);
        writeFileSync(file(capture, 'rdfxml'), response.body);
      }
    } finally {
      await app.close();
    }
    const manifest = path.join(dir, 'manifest.json');
    const captures = captureFiles().map((capture) => ({
      name: path.basename(capture),
      nquads: file(capture, 'nquads'),
      formats: Object.fromEntries(formats.filter((f) => f !== 'nquads').map((f) => [f, file(capture, f)])),
    }));
    writeFileSync(manifest, JSON.stringify({ captures }));
    const run = spawnSync(python!, [path.join(packageRoot, 'test', 'conformance', 'rdf_checks.py'), manifest], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(run.status, 0, run.stderr);
    rdflibResults = (JSON.parse(run.stdout) as { results: RdflibResult[] }).results;
    for (const [format, syntax] of Object.entries(riotSyntax)) {
      const files = captureFiles().map((capture) => file(capture, format as Format));
      const riot = spawnSync('java', ['-cp', jena!, 'riotcmd.riot', '--count', `--syntax=${syntax}`, ...files], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      for (const line of `${riot.stdout}\n${riot.stderr}`.split('\n')) {
        const match = /^file:\/\/(\S+) : (Quads|Triples) = ([\d,]+)/.exec(line.trim());
        if (match) riotCounts.set(match[1]!, match[3]!.replace(/,/g, ''));
      }
      if (riot.status !== 0) riotCounts.set(`${format}:error`, riot.stderr.slice(0, 2000));
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const capture of captureFiles()) {
    const name = path.basename(capture);
    const quads = () =>
      readFileSync(file(capture, 'nquads'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '').length;

    it(`${name}: rapper parses N-Quads, TriG, Turtle and RDF/XML, each with the N-Quads' number of triples`, () => {
      const expected = quads();
      assert.ok(expected > 100, `${expected} quads`);
      for (const [format, syntax] of Object.entries(rapperSyntax)) {
        const run = spawnSync('rapper', ['-i', syntax, '-c', file(capture, format as Format)], { encoding: 'utf8' });
        assert.equal(run.status, 0, `${format}: ${run.stderr}`);
        assert.match(
          run.stderr,
          new RegExp(`returned ${expected} (triples|statements)`),
          `${format}: ${run.stderr.trim()}`,
        );
      }
    });

    it(`${name}: Jena riot parses N-Quads, TriG, Turtle and RDF/XML, each with the N-Quads' number of triples`, () => {
      const expected = String(quads());
      for (const format of Object.keys(riotSyntax) as Format[]) {
        assert.equal(riotCounts.get(`${format}:error`), undefined, `${format}: riot failed`);
        assert.equal(
          riotCounts.get(file(capture, format)),
          expected,
          `${format}: riot counted ${riotCounts.get(file(capture, format))}`,
        );
      }
    });

    for (const format of formats) {
      it(`${name}: rdflib parses the ${format} and finds it isomorphic to the N-Quads`, () => {
        const result = rdflibResults.find((r) => r.name === name && r.format === format);
        assert.ok(result, `no rdflib result for ${format}`);
        assert.ok(result.parsed, result.detail);
        assert.ok(result.isomorphic, result.detail);
        assert.equal(result.triples, quads());
      });
    }
  }
});
