// The remote store with thousands of sessions, against the real Virtuoso: union queries, session queries and updates
// answer and count right, and no request or answer grows with the number of sessions (every request goes through a
// recording relay; naming each session graph in the request once made Virtuoso's answer headers pass Node's limit).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { RemoteStore } from '../../src/store/remote-store.js';
import { virtuosoOrSkip, type Virtuoso } from '../helpers/virtuoso.js';
import { rowsOf } from './quad-store-suite.js';

interface Exchange {
  requestBytes: number;
  responseHeaderBytes: number;
}

/**
 * An HTTP relay to `origin` that records the size of every request (URL, headers, body) and of every answer's headers.
 */
async function recordingRelay(
  origin: string,
): Promise<{ url: string; exchanges: Exchange[]; close: () => Promise<void> }> {
  const exchanges: Exchange[] = [];
  const headerBytes = (headers: Iterable<[string, string]>) =>
    [...headers].reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.entries(request.headers).flatMap(([name, value]): [string, string][] =>
      name === 'host' || name === 'content-length' || value === undefined ? [] : [[name, String(value)]],
    );
    const answer = await fetch(`${origin}${request.url}`, {
      method: request.method!,
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    const answerHeaders = [...answer.headers].filter(
      ([name]) => name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'content-length',
    );
    exchanges.push({
      requestBytes: request.url!.length + headerBytes(headers) + body.length,
      responseHeaderBytes: headerBytes(answer.headers),
    });
    response.writeHead(answer.status, Object.fromEntries(answerHeaders)).end(answerBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    exchanges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const sessions = 2000;
const graphOf = (i: number) => `urn:mcp-ld:session/scale-${i}`;
const mld = 'https://w3id.org/mcp-ld/ns#';

/** Each session: a request and its response (typed, numbered), the response linked to the request. */
function sessionQuads(): string {
  let text = '';
  for (let i = 0; i < sessions; i++) {
    const request = `<urn:x:scale/${i}/request>`;
    const response = `<urn:x:scale/${i}/response>`;
    const g = `<${graphOf(i)}>`;
    text += `${request} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${mld}Request> ${g} .\n`;
    text += `${request} <${mld}seq> "${i}"^^<http://www.w3.org/2001/XMLSchema#integer> ${g} .\n`;
    text += `${response} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${mld}Response> ${g} .\n`;
    text += `${response} <${mld}answers> ${request} ${g} .\n`;
  }
  return text;
}

describe('store: remote, thousands of sessions (Virtuoso)', function () {
  this.timeout(300_000);
  let virtuoso: Virtuoso;
  let relay: Awaited<ReturnType<typeof recordingRelay>>;
  let store: RemoteStore;

  before(async function () {
    this.timeout(180_000);
    virtuoso = await virtuosoOrSkip(this);
    relay = await recordingRelay(virtuoso.origin);
    store = await RemoteStore.open({
      queryUrl: `${relay.url}${new URL(virtuoso.queryUrl).pathname}`,
      user: virtuoso.user,
      password: virtuoso.password,
    });
    await store.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    assert.equal((await store.ingest(sessionQuads())).graphs.length, sessions);
  });

  after(async () => {
    await store?.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    await relay?.close();
  });

  const count = async (query: string, options = {}) =>
    rowsOf(await store.query(query, options)).map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])),
    );

  it('union queries over 2,000 session graphs answer and count right, without the system graphs', async () => {
    relay.exchanges.length = 0;
    assert.deepEqual(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), [{ n: sessions * 4 }]);
    assert.deepEqual(
      await count('SELECT (COUNT(DISTINCT ?g) AS ?graphs) (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }'),
      [{ graphs: sessions, n: sessions * 4 }],
    );
    // A join in the union default graph, and one within each named graph.
    const answered = `SELECT (COUNT(*) AS ?n) WHERE { ?r <${mld}answers> ?q . ?q a <${mld}Request> ; <${mld}seq> ?seq . FILTER(?seq >= 1000) }`;
    assert.deepEqual(await count(answered), [{ n: sessions - 1000 }]);
    assert.deepEqual(
      await count(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?r <${mld}answers> ?q . ?q a <${mld}Request> } }`),
      [{ n: sessions }],
    );
    // A GRAPH <iri> pattern (Virtuoso answers it wrong in its union less its system graphs, unless rewritten).
    const one = await store.query(`SELECT * WHERE { GRAPH <${graphOf(3)}> { ?s ?p ?o } }`);
    assert.deepEqual(one.form === 'SELECT' && [one.variables, one.rows.length], [['s', 'p', 'o'], 4]);
    assert.deepEqual(
      await count(
        `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graphOf(3)}> { ?r <${mld}answers> ?q } ?q <${mld}seq> ?seq }`,
      ),
      [{ n: 1 }],
    );
    assert.deepEqual(
      await count('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://www.openlinksw.com/schemas/virtrdf#> { ?s ?p ?o } }'),
      [{ n: 0 }],
    );
    const graphs = await store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
    assert.ok(rowsOf(graphs).every((row) => row['g']!.startsWith('urn:mcp-ld:session/scale-')));
  });

  it("a session's query sees its own graph as the default graph and every session graph as a named graph", async () => {
    assert.deepEqual(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { graph: graphOf(7) }), [{ n: 4 }]);
    assert.deepEqual(
      await count('SELECT (COUNT(DISTINCT ?g) AS ?graphs) WHERE { GRAPH ?g { ?s ?p ?o } }', { graph: graphOf(7) }),
      [{ graphs: sessions }],
    );
  });

  it("an update's GRAPH ?g reaches every one of 2,000 session graphs", async () => {
    // (Virtuoso 7.2.5 refuses an INSERT whose template has GRAPH ?g, with or without mcp-ld: SR002
    // string_output_string.)
    await store.update(
      `DELETE { GRAPH ?g { ?r <${mld}answers> ?q } } WHERE { GRAPH ?g { ?r <${mld}answers> ?q . ?q <${mld}seq> ?seq FILTER(?seq >= 500) } }`,
    );
    assert.deepEqual(
      await count(`SELECT (COUNT(DISTINCT ?g) AS ?graphs) WHERE { GRAPH ?g { ?r <${mld}answers> ?q } }`),
      [{ graphs: 500 }],
    );
    assert.deepEqual(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), [
      { n: sessions * 4 - (sessions - 500) },
    ]);
    await store.ingest(sessionQuads()); // ingesting the same quads again is harmless
    assert.deepEqual(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), [{ n: sessions * 4 }]);
  });

  it('no query or update request, nor the headers of its answer, grows with the number of sessions', () => {
    // Every exchange since the first test: queries, updates and the store's own list of system graphs. A list of 2,000
    // graph names would be ~100 KB in the request and ~300 KB of Virtuoso's X-SPARQL-* answer headers.
    assert.ok(relay.exchanges.length >= 8, `${relay.exchanges.length} exchanges`);
    const largest = (key: keyof Exchange) => Math.max(...relay.exchanges.map((exchange) => exchange[key]));
    assert.ok(largest('requestBytes') < 4096, `largest request: ${largest('requestBytes')} bytes`);
    assert.ok(largest('responseHeaderBytes') < 2048, `largest answer headers: ${largest('responseHeaderBytes')} bytes`);
  });
});
