import assert from 'node:assert/strict';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Quad } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { fixturesDir, trafficFile } from '../helpers/corpus.js';
import { parseJsonLd, parseNTriples, parseRdfXmlStrictly, parseTurtle } from '../ontology/rdf-helpers.js';
import { appOverMemory, ingestFiles, postQuery } from '../helpers/api-app.js';

const token = 'secret-token';
const everything = 'urn:mcp-ld:session/57cd8539-bf6a-4833-ae14-361ffa3a23c9';
const memory = 'urn:mcp-ld:session/5ebf57a4-27b5-4a47-9518-b169e2e5d5c4';
const sd = 'http://www.w3.org/ns/sparql-service-description#';

const objects = (quads: Quad[], predicate: string) =>
  quads.filter((q) => q.predicate.value === predicate).map((q) => q.object.value);

describe('api: the SPARQL 1.1 Protocol in full (datasets, service description, formats, media types)', function () {
  this.timeout(120_000);
  let app: FastifyInstance;
  let store: EmbeddedStore;

  before(async () => {
    ({ app, store } = await appOverMemory({ MCPLD_WRITE_TOKEN: token }));
    await ingestFiles(app, [trafficFile, path.join(fixturesDir, 'traffic', 'traffic-sdk1.0.4-memory-0.6.2.jsonl')], {
      authorization: `Bearer ${token}`,
    });
    assert.deepEqual(
      (await store.graphs()).map((g) => g.graph),
      [everything, memory],
    );
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const get = (parameters: [string, string][], accept = 'application/sparql-results+json') =>
    app.inject({ method: 'GET', url: `/sparql?${new URLSearchParams(parameters).toString()}`, headers: { accept } });
  const count = async (parameters: [string, string][]) => {
    const response = await get(parameters);
    assert.equal(response.statusCode, 200, response.body);
    return Number(response.json().results.bindings[0].n.value);
  };
  const graphsSeen = async (parameters: [string, string][]) => {
    const response = await get([
      ['query', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g'],
      ...parameters,
    ]);
    assert.equal(response.statusCode, 200, response.body);
    return (response.json().results.bindings as { g: { value: string } }[]).map((b) => b.g.value);
  };
  const countAll = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
  const memoryServer = 'ASK { ?implementation mcp:hasName "memory-server" }';

  it("honours the query's FROM: a graph that is no session counts 0 and ASKs false; FROM NAMED alone leaves the default graph empty", async () => {
    assert.equal(await count([['query', 'SELECT (COUNT(*) AS ?n) FROM <urn:nope> WHERE { ?s ?p ?o }']]), 0);
    assert.deepEqual((await get([['query', 'ASK FROM <urn:nope> { ?s ?p ?o }']])).json(), { head: {}, boolean: false });
    const sizes = new Map((await store.graphs()).map((g) => [g.graph, g.quads]));
    assert.equal(
      await count([['query', `SELECT (COUNT(*) AS ?n) FROM <${memory}> WHERE { ?s ?p ?o }`]]),
      sizes.get(memory),
    );
    assert.equal(await count([['query', `SELECT (COUNT(*) AS ?n) FROM NAMED <${memory}> WHERE { ?s ?p ?o }`]]), 0);
    // Without FROM: the union, and every session a named graph.
    assert.ok((await count([['query', countAll]])) >= sizes.get(memory)! + sizes.get(everything)! - 100);
    assert.deepEqual(await graphsSeen([]), [everything, memory]);
  });

  it('takes default-graph-uri and named-graph-uri, each several times, by GET, in a form and beside a sparql-query body; they replace FROM', async () => {
    const sizes = new Map((await store.graphs()).map((g) => [g.graph, g.quads]));
    // The memory server's ASK, its default graph the merge of `graphs`.
    const memoryServerIn = async (...graphs: string[]) =>
      (
        await get([['query', memoryServer], ...graphs.map((graph): [string, string] => ['default-graph-uri', graph])])
      ).json().boolean;
    assert.equal(await memoryServerIn(memory), true);
    assert.equal(await memoryServerIn(everything), false);
    assert.equal(await memoryServerIn(everything, memory), true);
    // The protocol's dataset replaces the query's.
    assert.equal(
      await count([
        ['query', `SELECT (COUNT(*) AS ?n) FROM <urn:nope> WHERE { ?s ?p ?o }`],
        ['default-graph-uri', memory],
      ]),
      sizes.get(memory),
    );
    // named-graph-uri alone: those named graphs, and an empty default graph.
    assert.deepEqual(await graphsSeen([['named-graph-uri', memory]]), [memory]);
    assert.deepEqual(
      await graphsSeen([
        ['named-graph-uri', memory],
        ['named-graph-uri', everything],
        ['named-graph-uri', 'urn:nope'],
      ]),
      [everything, memory],
    );
    assert.equal(
      await count([
        ['query', countAll],
        ['named-graph-uri', memory],
      ]),
      0,
    );
    // default-graph-uri alone: no named graphs.
    assert.deepEqual(await graphsSeen([['default-graph-uri', memory]]), []);
    // Graphs no session has are empty graphs, not errors.
    assert.equal(
      await count([
        ['query', countAll],
        ['default-graph-uri', 'urn:nope'],
        ['named-graph-uri', 'urn:nope'],
      ]),
      0,
    );

    const form = await app.inject({
      method: 'POST',
      url: '/sparql',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
      payload: new URLSearchParams([
        ['query', memoryServer],
        ['default-graph-uri', everything],
        ['default-graph-uri', memory],
      ]).toString(),
    });
    assert.deepEqual(form.json(), { head: {}, boolean: true });
    const direct = await app.inject({
      method: 'POST',
      url: `/sparql?${new URLSearchParams([['named-graph-uri', memory]]).toString()}`,
      headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
      payload: 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }',
    });
    assert.deepEqual(direct.json().results.bindings, [{ g: { type: 'uri', value: memory } }]);
  });

  it('refuses a dataset graph that is not an absolute IRI (400, naming the parameter)', async () => {
    for (const [name, value] of [
      ['default-graph-uri', 'session-1'],
      ['named-graph-uri', ''],
      ['default-graph-uri', 'urn:a b'],
    ]) {
      const response = await get([
        ['query', 'ASK {}'],
        [name!, value!],
      ]);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.match(
        response.json().detail,
        /^default-graph-uri and named-graph-uri take absolute IRIs: not an absolute IRI: /,
      );
    }
  });

  it('answers a GET with no parameters with its service description: Turtle by default, the same graph in JSON-LD, N-Triples and RDF/XML', async () => {
    const turtle = await app.inject({ method: 'GET', url: '/sparql' });
    assert.equal(turtle.statusCode, 200, turtle.body);
    assert.match(String(turtle.headers['content-type']), /^text\/turtle/);
    const quads = parseTurtle(turtle.body);
    const service = quads.find((q) => q.object.value === `${sd}Service`)!.subject.value;
    assert.deepEqual(objects(quads, `${sd}endpoint`), ['http://localhost:80/sparql']);
    assert.deepEqual(objects(quads, `${sd}supportedLanguage`).sort(), [`${sd}SPARQL11Query`, `${sd}SPARQL11Update`]);
    assert.deepEqual(objects(quads, `${sd}feature`), [`${sd}UnionDefaultGraph`]);
    const formats = objects(quads, `${sd}resultFormat`);
    for (const format of [
      'SPARQL_Results_JSON',
      'SPARQL_Results_XML',
      'SPARQL_Results_CSV',
      'SPARQL_Results_TSV',
      'Turtle',
      'N-Triples',
      'N-Quads',
      'JSON-LD',
      'RDF_XML',
    ]) {
      assert.ok(formats.includes(`http://www.w3.org/ns/formats/${format}`), format);
    }
    assert.equal(objects(quads, `${sd}defaultDataset`).length, 1);
    assert.equal(objects(quads, `${sd}defaultGraph`).length, 1);
    // Every session graph is a named graph, with its size.
    const names = objects(quads, `${sd}name`);
    assert.deepEqual(names.sort(), [everything, memory]);
    const sizes = objects(quads, 'http://rdfs.org/ns/void#triples')
      .map(Number)
      .sort((a, b) => a - b);
    assert.deepEqual(
      sizes,
      (await store.graphs()).map((g) => g.quads).sort((a, b) => a - b),
    );
    assert.match(
      objects(quads, 'http://www.w3.org/2000/01/rdf-schema#comment').join(' '),
      /at most 30000 ms .* at most 100000 rows/,
    );
    assert.ok(
      quads.every((q) => q.subject.termType === 'NamedNode'),
      'no blank nodes',
    );
    assert.ok(service.startsWith('http://localhost:80/sparql#'));

    const ntriples = await app.inject({ method: 'GET', url: '/sparql', headers: { accept: 'application/n-triples' } });
    assert.match(String(ntriples.headers['content-type']), /^application\/n-triples/);
    assert.ok(isomorphic(parseNTriples(ntriples.body), quads));
    const rdfXml = await app.inject({ method: 'GET', url: '/sparql', headers: { accept: 'application/rdf+xml' } });
    assert.match(String(rdfXml.headers['content-type']), /^application\/rdf\+xml/);
    assert.ok(isomorphic(await parseRdfXmlStrictly(rdfXml.body), quads));
    const jsonLd = await app.inject({ method: 'GET', url: '/sparql', headers: { accept: 'application/ld+json' } });
    assert.match(String(jsonLd.headers['content-type']), /^application\/ld\+json/);
    assert.ok(isomorphic(await parseJsonLd(jsonLd.body), quads));
    const refused = await app.inject({ method: 'GET', url: '/sparql', headers: { accept: 'text/csv' } });
    assert.equal(refused.statusCode, 406);
    assert.match(
      refused.json().detail,
      /text\/turtle, application\/ld\+json, application\/n-triples, application\/rdf\+xml/,
    );
    // Parameters without a query are a request without a query.
    const noQuery = await get([['default-graph-uri', memory]]);
    assert.equal(noQuery.statusCode, 400);
    assert.match(noQuery.json().detail, /^no query/);
  });

  it('says SPARQL 1.1 Update is supported only when it is (a write token is configured)', async () => {
    const readOnly = await buildServer(readServiceConfig({}, {}), { logger: false, store });
    try {
      const response = await readOnly.inject({ method: 'GET', url: '/sparql', headers: { host: '127.0.0.1:8080' } });
      const quads = parseTurtle(response.body);
      assert.deepEqual(objects(quads, `${sd}supportedLanguage`), [`${sd}SPARQL11Query`]);
      assert.deepEqual(objects(quads, `${sd}endpoint`), ['http://127.0.0.1:8080/sparql']);
    } finally {
      await readOnly.close();
    }
  });

  it("answers graphs in RDF/XML and SELECT/ASK to plain JSON or XML, as rdflib's SPARQLStore and SPARQLWrapper ask", async () => {
    const construct = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s a mcp:CallToolRequest ; ?p ?o }';
    const post = (query: string, accept: string) => postQuery(app, query, accept);
    const ntriples = parseNTriples((await post(construct, 'application/n-triples')).body);
    assert.ok(ntriples.length > 100);
    // rdflib's SPARQLStore (its default, "xml") sends this Accept for every form; SPARQLWrapper's default XML sends
    // application/rdf+xml for graphs.
    for (const accept of ['application/sparql-results+xml, application/rdf+xml', 'application/rdf+xml']) {
      const rdfXml = await post(construct, accept);
      assert.equal(rdfXml.statusCode, 200, rdfXml.body);
      assert.match(String(rdfXml.headers['content-type']), /^application\/rdf\+xml/);
      assert.ok(isomorphic(await parseRdfXmlStrictly(rdfXml.body), ntriples), accept);
      const described = await post(`DESCRIBE <${everything}>`, accept);
      assert.equal(described.statusCode, 200, described.body);
      assert.ok((await parseRdfXmlStrictly(described.body)).length > 0);
      const select = await post(
        'SELECT ?v WHERE { ?s mld:protocolVersion ?v } ORDER BY ?v',
        accept.includes('sparql-results') ? accept : 'application/sparql-results+xml',
      );
      assert.match(String(select.headers['content-type']), /^application\/sparql-results\+xml/);
      assert.match(select.body, /<binding name="v"><literal>2024-11-05<\/literal><\/binding>/);
    }
    // SPARQLWrapper's JSON: SPARQL JSON results for solutions, JSON-LD for graphs.
    const wrapperJson = 'application/sparql-results+json,application/json,text/javascript,application/javascript';
    const solutions = await post('ASK { ?s ?p ?o }', wrapperJson);
    assert.match(String(solutions.headers['content-type']), /^application\/sparql-results\+json/);
    assert.deepEqual(solutions.json(), { head: {}, boolean: true });
    const graph = await post(construct, 'application/ld+json,application/x-json+ld');
    assert.match(String(graph.headers['content-type']), /^application\/ld\+json/);
    // Plain JSON and plain XML: the SPARQL results formats, under the type asked for.
    const json = await post('SELECT ?v WHERE { ?s mld:protocolVersion ?v } ORDER BY ?v', 'application/json');
    assert.equal(json.statusCode, 200, json.body);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.deepEqual(
      json.json().results.bindings.map((b: { v: { value: string } }) => b.v.value),
      ['2024-11-05', '2025-11-25'],
    );
    const xml = await post('ASK { ?s ?p ?o }', 'application/xml');
    assert.match(String(xml.headers['content-type']), /^application\/xml/);
    assert.match(xml.body, /<boolean>true<\/boolean>/);
    assert.equal((await post(construct, 'application/json')).statusCode, 406, 'a graph is no SPARQL JSON result');
  });

  it('refuses RDF/XML for a graph it cannot write (a predicate that ends in no XML name) with a 406 naming the predicate, never a 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/sparql',
      headers: { 'content-type': 'application/sparql-query', accept: 'application/rdf+xml' },
      payload: 'CONSTRUCT { ?s <urn:x:1> ?o } WHERE { ?s mld:protocolVersion ?o }',
    });
    assert.equal(response.statusCode, 406, response.body);
    assert.equal(response.json().code, 'format.not-xml');
    assert.match(response.json().detail, /RDF\/XML cannot write <urn:x:1> as a predicate/);
  });

  it('answers 415 to a body of another media type (text/plain, JSON), and 400 to a query and an update together, token or not', async () => {
    for (const type of ['text/plain', 'application/json', 'text/plain; charset=utf-8']) {
      const response = await app.inject({
        method: 'POST',
        url: '/sparql',
        headers: { 'content-type': type },
        payload: type.includes('json') ? '{"query":"ASK {}"}' : 'ASK {}',
      });
      assert.equal(response.statusCode, 415, response.body);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.match(
        response.json().detail,
        /takes application\/x-www-form-urlencoded, application\/sparql-query, application\/sparql-update/,
      );
    }
    const both = new URLSearchParams([
      ['query', 'ASK {}'],
      ['update', 'CLEAR SILENT GRAPH <urn:x:g>'],
    ]).toString();
    const open = await buildServer(readServiceConfig({}, {}), { logger: false, store });
    try {
      for (const server of [app, open]) {
        const post = (url: string, type: string, payload: string) =>
          server.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
        const form = await post('/sparql', 'application/x-www-form-urlencoded', both);
        assert.equal(form.statusCode, 400, form.body);
        assert.match(form.json().detail, /^give either a query or an update, not both/);
        const update = await post(
          '/sparql?query=ASK%20%7B%7D',
          'application/sparql-update',
          'CLEAR SILENT GRAPH <urn:x:g>',
        );
        assert.equal(update.statusCode, 400, update.body);
        const query = await post('/sparql?update=x', 'application/sparql-query', 'ASK {}');
        assert.equal(query.statusCode, 400, query.body);
        assert.match(query.json().detail, /^give either a query or an update, not both/);
        const url = await server.inject({ method: 'GET', url: `/sparql?${both}` });
        assert.equal(url.statusCode, 400, url.body);
      }
    } finally {
      await open.close();
    }
  });
});
