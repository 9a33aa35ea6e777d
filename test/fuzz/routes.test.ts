// Fuzz: every route of the API (as the OpenAPI document lists them), one test each, on one real `mcp-ld serve`: path
// parameters, query strings, headers and bodies generated (any Unicode, bytes that are not UTF-8 in the URL and the
// body, SPARQL, messages, forms). Invariants: no 5xx is reachable from input, every 4xx is problem+json, and a write
// that is refused leaves the store as it was.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { packageRoot } from '../../src/core/paths.js';
import { protocolVersions } from '../../src/schema/index.js';
import { startService, type Service } from '../helpers/service.js';
import { assertNoServerError, deleteSessions, send, stopService, storeSize } from './http-checks.js';
import { anyJson, anyString, fuzzInput } from './inputs.js';
import { check, Tally } from './settings.js';

interface Route {
  method: string;
  /** OpenAPI form: /sessions/{id} */
  path: string;
  query: string[];
}

/** The routes the service documents, read from its OpenAPI document (built in process, never listening). */
async function documentedRoutes(): Promise<Route[]> {
  const app = await buildServer(readServiceConfig({}, {}), { logger: false });
  await app.ready();
  const paths = (
    app.swagger() as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> }
  ).paths;
  await app.close();
  return Object.entries(paths).flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: route,
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    })),
  );
}

// GET /events is a stream that never ends and reads no input (no parameter, no body): test/api/console-routes.test.ts
// checks what it answers.
const routes = [
  ...(await documentedRoutes()).filter((r) => r.path !== '/events'),
  { method: 'GET', path: '/openapi.json', query: [] },
];
const token = 'fuzz-token';

/** Bytes in a URL: unreserved ones as they are, every other as %XX. */
function percentEncoded(bytes: Uint8Array): string {
  return [...bytes]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

/** Any string's UTF-8 percent-encoded (a lone surrogate as U+FFFD, as a browser sends it), or any bytes as %XX. */
const encodedString = anyString.map((s) => percentEncoded(Buffer.from(s, 'utf8')));

const queryFiles = readdirSync(path.join(packageRoot, 'queries')).filter((f) => f.endsWith('.rq'));
const queryNames = queryFiles.map((f) => f.replace(/\.rq$/, ''));
const queryParameters = [
  ...new Set(
    queryFiles.flatMap((f) =>
      [...readFileSync(path.join(packageRoot, 'queries', f), 'utf8').matchAll(/^# @param (\S+)/gm)].map((m) => m[1]!),
    ),
  ),
];
const contextNames = [
  ...readdirSync(path.join(packageRoot, 'contexts')).filter((f) => f.endsWith('.jsonld')),
  ...readdirSync(path.join(packageRoot, 'contexts', 'messages')).slice(0, 10),
].map((f) => f.replace(/\.jsonld$/, ''));

/** Mostly values a route knows (so that requests get past the first check), else anything. */
function mostly<T>(known: fc.Arbitrary<T>, other: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: other, weight: 1 });
}

const anySegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('..', '.', '', 'index', '%00', '%ff', '%c3%28', '%2f'),
  encodedString,
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map(percentEncoded),
);

/** Path parameters the routes know, by route group and parameter. */
const knownSegments: Record<string, string[]> = {
  'contexts name': [...contextNames, ...contextNames.map((n) => `${n}.jsonld`)],
  'contexts version': [...protocolVersions],
  'queries name': queryNames,
  'sessions id': ['fuzz', percentEncoded(Buffer.from('urn:mcp-ld:session/fuzz')), 'fuzz-update'],
};

const sparqlTexts = [
  'SELECT * WHERE { ?s ?p ?o } LIMIT 3',
  'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }',
  'ASK { ?s ?p ?o }',
  'CONSTRUCT WHERE { ?s ?p ?o } LIMIT 2',
  'DESCRIBE <urn:mcp-ld:session/fuzz>',
  'SELECT * WHERE { ?s ?p ?o } ORDER BY ?o OFFSET 1 LIMIT 1',
  'SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }',
  'SELECT * WHERE { ?s ?p ?o',
  'INSERT DATA { GRAPH <urn:mcp-ld:session/fuzz-update> { <urn:a> <urn:b> "c" } }',
  'DELETE WHERE { GRAPH <urn:mcp-ld:session/fuzz-update> { ?s ?p ?o } }',
  'INSERT DATA { <urn:a> <urn:b> "c" }',
  'LOAD <http://127.0.0.1:9/x>',
  'CLEAR ALL',
  'DROP GRAPH <urn:mcp-ld:session/fuzz>',
  'INSERT { GRAPH <urn:mcp-ld:session/fuzz-update> { ?s <urn:n> ?n } } WHERE { BIND(NOW() AS ?n) BIND(<urn:s> AS ?s) }',
  'PREFIX : <urn:> SELECT * WHERE { :a :b "\\u0000" }',
  'SELECT * WHERE { ?s ?p "\ud800" }',
  'SELECT * WHERE { ?s ?p "\\ud800" }',
];

/** SPARQL, whole or cut short, with bytes that are not UTF-8 put in at times. */
const sparqlBytes: fc.Arbitrary<Buffer> = fc
  .tuple(fc.constantFrom(...sparqlTexts), fc.nat(), fc.constantFrom('none', 'none', 'none', 'cut', 'invalid'))
  .map(([text, at, fault]) => {
    const bytes = Buffer.from(text);
    if (fault === 'cut') return bytes.subarray(0, at % (bytes.length + 1));
    if (fault === 'invalid')
      return Buffer.concat([
        bytes.subarray(0, at % (bytes.length + 1)),
        Buffer.of(0xff, 0xc3),
        bytes.subarray(at % (bytes.length + 1)),
      ]);
    return bytes;
  });

const queryValue: fc.Arbitrary<string> = mostly(
  fc.oneof(
    fc.constantFrom(
      'true',
      'false',
      '1',
      '0',
      '-1',
      '1e400',
      '100000',
      '2025-06-18',
      '2099-01-01',
      'fast',
      'reference',
      'urn:mcp-ld:session/fuzz',
      'https://example.org/',
      'string',
      'integer',
      '',
      'ping',
      'tools/call',
    ),
    sparqlBytes.map(percentEncoded),
  ),
  anySegment,
);

const body = (route: Route): fc.Arbitrary<Buffer | undefined> => {
  const messages = fuzzInput(['line', 'pretty', 'batch']).map((input) => input.bytes);
  const forms = fc
    .tuple(fc.constantFrom('query', 'update', 'default-graph-uri', 'x'), sparqlBytes, fc.boolean())
    .map(([name, text, twice]) =>
      Buffer.from(
        twice ? `${name}=${percentEncoded(text)}&${name}=${percentEncoded(text)}` : `${name}=${percentEncoded(text)}`,
      ),
    );
  const parameters = fc
    .dictionary(fc.constantFrom(...queryParameters, 'x', '__proto__'), mostly(queryValue, anyJson), { maxKeys: 3 })
    .map((values) => Buffer.from(JSON.stringify(values)));
  const known =
    route.path === '/sparql' ? fc.oneof(sparqlBytes, forms) : route.path.startsWith('/queries') ? parameters : messages;
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: known, weight: 4 },
    {
      arbitrary: fc.oneof(
        messages,
        sparqlBytes,
        fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      ),
      weight: 1,
    },
  );
};

const contentTypes = [
  'application/json',
  'application/x-ndjson',
  'application/jsonl',
  'application/sparql-query',
  'application/sparql-update',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
  'application/ld+json',
  '*/*',
  ';;',
  'application/json; charset="',
  '',
];
const accepts = [
  '*/*',
  'application/json',
  'application/ld+json',
  'application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"',
  'text/turtle',
  'application/n-quads',
  'application/trig',
  'application/rdf+xml',
  'application/n-triples',
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
  'application/json; profile="https://w3id.org/mcp-ld/rows"',
  'application/jsonl',
  'application/x-ndjson',
  'text/html',
  'image/png',
  'application/*;q=0',
  'text/turtle;q=0.1, application/json;q=abc',
  ',,,',
  '',
];

function routeContentTypes(route: Route): string[] {
  if (route.path === '/sparql')
    return ['application/sparql-query', 'application/sparql-update', 'application/x-www-form-urlencoded'];
  if (route.path.startsWith('/queries')) return ['application/json'];
  return ['application/json', 'application/x-ndjson'];
}

const request = (route: Route) =>
  fc.record({
    params: fc.tuple(
      ...[...route.path.matchAll(/\{([^}]+)\}/g)].map((m) =>
        mostly(fc.constantFrom(...(knownSegments[`${route.path.split('/')[1]} ${m[1]}`] ?? ['x'])), anySegment),
      ),
    ),
    query: fc
      .tuple(
        // GET /sparql without parameters answers the service description: it gets a query most of the time.
        route.method === 'GET' && route.path === '/sparql'
          ? mostly(
              sparqlBytes.map((text): [string, string][] => [['query', percentEncoded(text)]]),
              fc.constant<[string, string][]>([]),
            )
          : fc.constant<[string, string][]>([]),
        fc.array(
          fc.tuple(
            mostly(
              fc.constantFrom('unknown', ...route.query, ...(route.path.startsWith('/queries') ? queryParameters : [])),
              fc.oneof(fc.constant('unknown'), encodedString),
            ),
            queryValue,
          ),
          { maxLength: 2 },
        ),
      )
      .map(([first, rest]) => [...first, ...rest]),
    contentType: mostly(fc.constantFrom(...routeContentTypes(route)), fc.constantFrom(...contentTypes)),
    accept: mostly(fc.constant('*/*'), fc.constantFrom(...accepts)),
    authorization: mostly(
      fc.constant(`Bearer ${token}`),
      fc.constantFrom(undefined, 'Bearer wrong', 'Basic Zm9vOmJhcg==', 'Bearer'),
    ),
    body: body(route),
  });

function urlOf(base: string, route: Route, params: readonly string[], query: [string, string][]): string {
  let i = 0;
  const pathname = route.path.replace(/\{[^}]+\}/g, () => params[i++] ?? 'x');
  const search = query.map(([name, value]) => `${name}=${value}`).join('&');
  return `${base}${pathname}${search ? `?${search}` : ''}`;
}

describe('fuzz: no 5xx is reachable from input, on every route', function () {
  this.timeout(1_800_000);
  let service: Service;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-fuzz-routes-'));
    service = await startService(['--data', path.join(dir, 'data')], { MCPLD_WRITE_TOKEN: token });
    // Something to read: a session with messages.
    const seeded = await send(`${service.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}`, 'mcp-ld-session': 'fuzz' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":"é"}}}\n{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n',
    });
    assert.equal(seeded.status, 200, seeded.body.toString());
  });
  after(async () => {
    await stopService(service);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}`, async () => {
      const writes = route.method !== 'GET';
      const statuses = new Tally();
      const property = fc.asyncProperty(
        request(route),
        async ({ params, query, contentType, accept, authorization, body: payload }) => {
          const headers: Record<string, string> = { accept };
          if (contentType) headers['content-type'] = contentType;
          if (authorization) headers['authorization'] = authorization;
          const before = writes ? await storeSize(service) : 0;
          const url = urlOf(service.url, route, params, query);
          const answer = await send(url, {
            method: route.method,
            headers,
            ...(payload && route.method !== 'GET' ? { body: new Uint8Array(payload) } : {}),
          });
          statuses.add(answer.status);
          assertNoServerError(answer, `${route.method} ${url}`);
          if (writes && answer.status >= 400)
            assert.equal(
              await storeSize(service),
              before,
              `${route.method} ${url}: a refused request leaves the store as it was`,
            );
          // What an ingest stored goes again (but the seeded session), so that the store stays small over many runs.
          if (route.path === '/ingest' && answer.status === 200) {
            const sessions = (JSON.parse(answer.body.toString()) as { sessions: string[] }).sessions.filter(
              (s) => s !== 'fuzz',
            );
            await deleteSessions(service, sessions, token);
          }
        },
      );
      await check(`${route.method} ${route.path}`, property, 50, statuses);
    });
  }
});
