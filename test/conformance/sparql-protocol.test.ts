// The W3C SPARQL 1.1 Protocol test cases (test/fixtures/sparql-protocol/manifest.ttl, copied from the W3C suite) that
// apply to a read-only endpoint whose default graph is the union of its named graphs, sent as written to the /sparql
// of a real `mcp-ld serve`: every query and bad-query case. Each case's graph data (data1.nt … data3.nt) is loaded
// into the named graph its label names. The update cases do not apply: mcp-ld's /sparql takes updates only with a
// write token, and the store's graphs are sessions that a protocol test may not empty. The endpoint's path is
// /sparql, where the cases write the W3C suite's /sparql/.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import { Parser, Store } from 'n3';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { fixturesDir } from '../helpers/corpus.js';
import { stop } from '../helpers/http-processes.js';
import { startService, type Service } from '../helpers/service.js';

const dir = path.join(fixturesDir, 'sparql-protocol');
const manifestBase = 'http://www.w3.org/2009/sparql/docs/tests/data-sparql11/protocol/manifest';
const mf = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const ht = 'http://www.w3.org/2011/http#';
const hts = 'http://www.w3.org/2011/http-statusCodes#';
const cnt = 'http://www.w3.org/2011/content#';
const ut = 'http://www.w3.org/2009/sparql/tests/test-update#';
const rdf = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const rdfs = 'http://www.w3.org/2000/01/rdf-schema#';

interface ProtocolRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  statuses: string[];
  boolean?: boolean;
  format?: string;
}

interface ProtocolCase {
  name: string;
  title: string;
  graphs: Array<{ file: string; graph: string }>;
  requests: ProtocolRequest[];
}

/**
 * Why a case of the manifest does not apply to mcp-ld's read-only, union-default-graph /sparql (undefined: it applies).
 */
function notApplicable(name: string): string | undefined {
  if (name.includes('update'))
    return 'an update: /sparql is read-only without the write token, and its graphs are recorded sessions';
  return undefined;
}

/** The cases of the manifest, in its order. */
function protocolCases(): ProtocolCase[] {
  const store = new Store(
    new Parser({ baseIRI: manifestBase }).parse(readFileSync(path.join(dir, 'manifest.ttl'), 'utf8')),
  );
  const one = (subject: Term, predicate: string): Term | undefined => store.getObjects(subject, predicate, null)[0];
  const all = (subject: Term, predicate: string): Term[] => store.getObjects(subject, predicate, null);
  const list = (head: Term | undefined): Term[] => {
    const items: Term[] = [];
    for (let cell = head; cell && cell.value !== `${rdf}nil`; cell = one(cell, `${rdf}rest`))
      items.push(one(cell, `${rdf}first`)!);
    return items;
  };
  const manifest = store.getSubjects(`${rdf}type`, `${mf}Manifest`, null)[0]!;
  return list(one(manifest, `${mf}entries`)).map((entry) => {
    const action = one(entry, `${mf}action`)!;
    const requests = list(one(action, `${ht}requests`)).map((request): ProtocolRequest => {
      const headers: Record<string, string> = {};
      for (const header of list(one(request, `${ht}headers`)))
        headers[one(header, `${ht}fieldName`)!.value] = one(header, `${ht}fieldValue`)!.value;
      const response = one(request, `${ht}resp`)!;
      const body = one(request, `${ht}body`);
      const protocolRequest: ProtocolRequest = {
        method: one(request, `${ht}methodName`)!.value,
        path: one(request, `${ht}absolutePath`)!.value.replace(/^\/sparql\//, '/sparql'),
        headers,
        statuses: all(response, `${mf}expectedStatus`).map((s) => s.value.slice(hts.length)),
      };
      if (body) {
        const chars = one(body, `${cnt}chars`)!.value;
        protocolRequest.body =
          one(body, `${cnt}characterEncoding`)?.value === 'UTF-16'
            ? Buffer.from(`\ufeff${chars}`, 'utf16le')
            : Buffer.from(chars, 'utf8');
      }
      const expectedBoolean = one(response, `${mf}expectedBoolean`);
      if (expectedBoolean) protocolRequest.boolean = expectedBoolean.value === 'true';
      const format = one(response, `${mf}expectedFormat`);
      if (format) protocolRequest.format = format.value;
      return protocolRequest;
    });
    const graphs = all(entry, `${ut}graphData`).map((data) => ({
      file: one(data, `${ut}graph`)!.value.slice(one(data, `${ut}graph`)!.value.lastIndexOf('/') + 1),
      graph: one(data, `${rdfs}label`)!.value,
    }));
    return {
      name: entry.value.slice(entry.value.indexOf('#') + 1),
      title: one(entry, `${mf}name`)!.value,
      graphs,
      requests,
    };
  });
}

const resultTypes: Record<string, RegExp> = {
  boolean: /^application\/sparql-results\+(json|xml)\b/,
  tabular: /^(application\/sparql-results\+(json|xml)|text\/csv|text\/tab-separated-values)\b/,
  RDF: /^(text\/turtle|application\/n-triples|application\/rdf\+xml|application\/ld\+json|application\/n-quads|application\/trig)\b/,
};

/** The boolean of an ASK answer in SPARQL JSON or XML results. */
function booleanOf(contentType: string, body: string): boolean | undefined {
  if (contentType.includes('json')) return (JSON.parse(body) as { boolean?: boolean }).boolean;
  const match = /<boolean>\s*(true|false)\s*<\/boolean>/.exec(body);
  return match ? match[1] === 'true' : undefined;
}

/** What is wrong with the answer to `request` (undefined: it is what the case expects). */
async function check(service: Service, request: ProtocolRequest): Promise<string | undefined> {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.body) init.body = new Uint8Array(request.body);
  const response = await fetch(`${service.url}${request.path}`, init);
  const body = await response.text();
  const status = `StatusCode${String(response.status)[0]}xx`;
  if (!request.statuses.includes(status))
    return `${request.method} ${request.path}: status ${response.status}, expected ${request.statuses.join(' or ')}: ${body.slice(0, 300)}`;
  const contentType = response.headers.get('content-type') ?? '';
  if (request.format !== undefined && !resultTypes[request.format]!.test(contentType))
    return `${request.method} ${request.path}: content type ${contentType} for ${request.format} results`;
  if (request.boolean !== undefined && booleanOf(contentType, body) !== request.boolean)
    return `${request.method} ${request.path}: answered ${body.slice(0, 300)}, expected ${request.boolean}`;
  return undefined;
}

describe('conformance: the W3C SPARQL 1.1 Protocol test cases for a read-only endpoint, against /sparql', function () {
  this.timeout(120_000);
  const cases = protocolCases();
  const data = mkdtempSync(path.join(tmpdir(), 'mcp-ld-sparql-protocol-'));
  let service: Service | undefined;

  before(async () => {
    const store = await EmbeddedStore.open({ dataDir: data });
    try {
      const loaded = new Set<string>();
      for (const { file, graph } of cases.flatMap((c) => c.graphs)) {
        if (loaded.has(graph)) continue;
        loaded.add(graph);
        const triples: Quad[] = new Parser({ format: 'N-Triples' }).parse(readFileSync(path.join(dir, file), 'utf8'));
        await store.ingest(
          triples
            .map((t) => `<${t.subject.value}> <${t.predicate.value}> <${t.object.value}> <${graph}> .`)
            .join('\n') + '\n',
        );
      }
    } finally {
      await store.close();
    }
    service = await startService(['--data', data]);
  });
  after(async () => {
    if (service) await stop(service.child);
    rmSync(data, { recursive: true, force: true });
  });

  it('reads every case of the manifest (34), of which 20 apply (14 are updates)', () => {
    assert.equal(cases.length, 34);
    assert.equal(cases.filter((c) => notApplicable(c.name) === undefined).length, 20);
  });

  for (const protocolCase of cases) {
    if (notApplicable(protocolCase.name) !== undefined) continue;
    it(`${protocolCase.name}: ${protocolCase.title}`, async () => {
      for (const request of protocolCase.requests) {
        const problem = await check(service!, request);
        assert.equal(problem, undefined, problem);
      }
    });
  }
});
