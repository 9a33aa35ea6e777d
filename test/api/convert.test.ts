import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { Parser, type Quad } from 'n3';
import type { FastifyInstance } from 'fastify';
import jsonld from 'jsonld';
import { buildServer } from '../../src/api/server.js';
import { inlineContextProfile } from '../../src/api/routes/convert.js';
import { runCli } from '../helpers/run-cli.js';
import { readServiceConfig } from '../../src/core/config.js';
import { captures, fixturesDir, trafficFile } from '../helpers/corpus.js';

const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}';

describe('api: POST /convert', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildServer(readServiceConfig({}, { MCPLD_BODY_LIMIT: '2000000' }), { logger: false });
  });
  after(() => app.close());

  const post = (body: string | Buffer, headers: Record<string, string> = {}, query = '') =>
    app.inject({
      method: 'POST',
      url: `/convert${query}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  it('answers N-Quads by default, with the session and counts in headers', async () => {
    const response = await post(call, {}, '?session=s1');
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^application\/n-quads/);
    assert.equal(response.headers['mcp-ld-session'], 's1');
    assert.equal(response.headers['mcp-ld-messages'], '1');
    const quads = new Parser({ format: 'N-Quads' }).parse(response.body);
    assert.equal(String(quads.length), response.headers['mcp-ld-quads']);
    assert.ok(quads.some((q) => q.object.value === 'http://modelcontextprotocol.io/ontology#CallToolRequest'));
  });

  it('answers 400 naming the byte offset for a body that is not UTF-8, and the key and its place for a key given twice', async () => {
    const start = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"');
    const notUtf8 = await post(Buffer.concat([start, Buffer.of(0xc0, 0xaf), Buffer.from('"}}')]));
    assert.equal(notUtf8.statusCode, 400);
    assert.match(String(notUtf8.headers['content-type']), /^application\/problem\+json/);
    assert.equal(notUtf8.json().title, 'Invalid UTF-8');
    assert.match(notUtf8.json().detail, new RegExp(`^invalid UTF-8 at byte ${start.length} \\(0xC0\\)`));
    const twice = await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}');
    assert.equal(twice.statusCode, 400);
    assert.equal(twice.json().title, 'Duplicate key');
    assert.equal(
      twice.json().detail,
      'the key "name" is given twice in one object, the second time at line 1, column 68: JSON.parse would keep only the last one; send each key once',
    );
    const batch = await post(Buffer.concat([Buffer.from(`[${call},\n`), Buffer.of(0x80), Buffer.from(']')]));
    assert.equal(batch.statusCode, 400);
    assert.deepEqual([batch.json().title, batch.json().line], ['Invalid UTF-8', 2]);
  });

  it('answers 400, not 500, for a ?session the MCP-LD-Session header could not carry (printable ASCII only)', async () => {
    for (const session of ['%F0%9F%98%80', '%7F', 'caf%C3%A9']) {
      const response = await post(call, {}, `?session=${session}`);
      assert.equal(response.statusCode, 400, `${session}: ${response.body}`);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.match(response.json().detail, /^querystring\/session must match pattern/);
    }
    assert.equal((await post(call, {}, '?session=a%20b~1')).headers['mcp-ld-session'], 'a b~1');
  });

  it('lifts plain messages by ?protocol= when they declare no version, and answers 400 for a version it does not know', async () => {
    const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: {} } });
    const current = await post(discover, {}, '?protocol=2026-07-28&session=s');
    assert.equal(current.statusCode, 200);
    assert.match(current.body, /ontology#DiscoverRequest>/);
    assert.match(current.body, /ns#schemaVersion> "2026-07-28"/);
    const unknown = await post(discover, {}, '?protocol=2099-01-01');
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().detail, /protocol/);
  });

  it('derives the session from the body as mcp-ld convert does: the same message gives the same IRIs, unless a session is named', async () => {
    const first = await post(call);
    assert.match(String(first.headers['mcp-ld-session']), /^[0-9a-f]{16}$/);
    assert.equal((await post(call)).body, first.body, 'the same body, the same quads');
    const cli = await runCli(['convert', '--quiet'], { input: `${call}\n` });
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(
      new Set(cli.stdout.trimEnd().split('\n')),
      new Set(first.body.trimEnd().split('\n')),
      'the CLI gives the same quads for the same message',
    );
    assert.ok(first.body.includes(`<urn:mcp-ld:session/${first.headers['mcp-ld-session']}>`));
    const other = await post(call.replace('"hi"', '"ho"'));
    assert.notEqual(
      other.headers['mcp-ld-session'],
      first.headers['mcp-ld-session'],
      'another message, another session',
    );
    const named = await post(call, {}, '?session=mine');
    assert.equal(named.headers['mcp-ld-session'], 'mine');
    assert.ok(named.body.includes('<urn:mcp-ld:session/mine>'));
  });

  it('answers compacted JSON-LD that references the published context by URL (Link header), and inlines it when the profile asks', async () => {
    const referenced = await post(call, { accept: 'application/ld+json', host: 'localhost:8080' });
    assert.equal(referenced.statusCode, 200, referenced.body);
    const url = 'http://localhost:8080/contexts/mcp.jsonld';
    assert.equal(
      referenced.headers['link'],
      `<${url}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
    );
    const document = referenced.json() as { '@context': unknown };
    assert.deepEqual((document['@context'] as unknown[])[0], url);
    const inline = await post(call, { accept: `application/ld+json; profile="${inlineContextProfile}"` });
    assert.equal(inline.statusCode, 200, inline.body);
    assert.equal(inline.headers['link'], undefined);
    const inlined = inline.json() as { '@context': Record<string, unknown> };
    assert.equal(typeof inlined['@context'], 'object');
    assert.ok(!Array.isArray(inlined['@context']));
    assert.ok(
      referenced.body.length * 5 < inline.body.length,
      `the referencing answer (${referenced.body.length} bytes) is a fraction of the inlined one (${inline.body.length})`,
    );
    // Both say the same: the referenced context, fetched from the service itself, expands to the same quads.
    const served = await app.inject({ method: 'GET', url: '/contexts/mcp.jsonld' });
    const documentLoader = async (asked: string) => {
      assert.equal(asked, url);
      return { contextUrl: undefined, documentUrl: asked, document: JSON.parse(served.body) };
    };
    const toQuads = async (doc: object) =>
      new Set(
        (
          (await jsonld.toRDF(
            doc as never,
            { format: 'application/n-quads', documentLoader } as never,
          )) as unknown as string
        )
          .trimEnd()
          .split('\n'),
      );
    assert.deepEqual(await toQuads(document), await toQuads(inlined));
  });

  it('converts NDJSON of capture records (the real capture)', async () => {
    const response = await post(readFileSync(trafficFile, 'utf8'), { 'content-type': 'application/x-ndjson' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['mcp-ld-messages'], '220');
    assert.equal(
      response.headers['mcp-ld-invalid-messages'],
      '1',
      'the capture is lifted by its own version, 2025-11-25',
    );
  });

  it('negotiates TriG, Turtle, N-Triples, JSON-LD (compacted and expanded) and RDF/XML', async () => {
    const cases: [string, RegExp][] = [
      ['application/trig', /^application\/trig/],
      ['text/turtle', /^text\/turtle/],
      ['application/n-triples', /^application\/n-triples/],
      ['application/ld+json', /^application\/ld\+json/],
      ['application/rdf+xml', /^application\/rdf\+xml/],
      ['text/html;q=0.9, text/turtle', /^text\/turtle/],
    ];
    for (const [accept, type] of cases) {
      const response = await post(call, { accept });
      assert.equal(response.statusCode, 200, `${accept}: ${response.body}`);
      assert.match(String(response.headers['content-type']), type, accept);
    }
    const compacted = JSON.parse((await post(call, { accept: 'application/ld+json' })).body);
    assert.ok(compacted['@context'], 'compacted JSON-LD has the merged context');
    const expanded = JSON.parse(
      (await post(call, { accept: 'application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"' })).body,
    );
    assert.ok(Array.isArray(expanded) && !('@context' in expanded), 'expanded JSON-LD is an array without a context');
    const xml = (await post(call, { accept: 'application/rdf+xml' })).body;
    assert.match(xml, /<rdf:RDF/);
  });

  it('writes RDF/XML of every capture that parses back to the same triples, predicates with no plain QName included', async () => {
    // 2026-07-28's `mcp:io.modelcontextprotocol/clientInfo`, and extension keys with a `%`, split where a QName fits.
    for (const { file } of captures) {
      const body = readFileSync(path.join(fixturesDir, 'traffic', file), 'utf8');
      const [xml, nquads] = await Promise.all(
        ['application/rdf+xml', 'application/n-quads'].map((accept) =>
          post(body, { 'content-type': 'application/x-ndjson', accept }),
        ),
      );
      assert.equal(xml!.statusCode, 200, `${file}: ${xml!.body.slice(0, 300)}`);
      const triples = await new Promise<Set<string>>((resolve, reject) => {
        const seen = new Set<string>();
        const parser = new RdfXmlParser();
        parser.on('data', (q: Quad) =>
          seen.add(
            `${q.subject.value} ${q.predicate.value} ${q.object.termType === 'Literal' ? JSON.stringify(q.object.value) + q.object.datatype.value : q.object.value}`,
          ),
        );
        parser.on('error', reject);
        parser.on('end', () => resolve(seen));
        parser.end(xml!.body);
      });
      const expected = new Set(
        new Parser({ format: 'N-Quads' })
          .parse(nquads!.body)
          .map(
            (q) =>
              `${q.subject.value} ${q.predicate.value} ${q.object.termType === 'Literal' ? JSON.stringify(q.object.value) + q.object.datatype.value : q.object.value}`,
          ),
      );
      assert.deepEqual(triples, expected, file);
    }
  });

  it('refuses RDF/XML (406) for a literal with a character XML cannot carry (U+0000), and gives it in N-Quads', async () => {
    const nul = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { '\u0000nul': 'a\u0001b' } },
    });
    const xml = await post(nul, { accept: 'application/rdf+xml' }, '?session=nul');
    assert.equal(xml.statusCode, 406);
    assert.match(xml.json().detail, /control character XML 1\.0 cannot carry/);
    assert.equal((await post(nul, { accept: 'application/n-quads' }, '?session=nul')).statusCode, 200);
  });

  it('refuses RDF/XML for several sessions (406): it holds one graph', async () => {
    const two = `{"session":"a","msg":${call}}\n{"session":"b","msg":${call}}`;
    const response = await post(two, { 'content-type': 'application/x-ndjson', accept: 'application/rdf+xml' });
    assert.equal(response.statusCode, 406);
    assert.match(response.json().detail, /RDF\/XML holds one graph, and this data has 2/);
  });

  it('answers 406 problem+json when no format is acceptable', async () => {
    const response = await post(call, { accept: 'image/png' });
    assert.equal(response.statusCode, 406);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  });

  it('answers 400 with line and column for malformed JSON, and lists every bad NDJSON line', async () => {
    const malformed = await post('{"jsonrpc":"2.0",');
    assert.equal(malformed.statusCode, 400);
    assert.deepEqual(
      { title: malformed.json().title, line: malformed.json().line },
      { title: 'Malformed JSON', line: 1 },
    );
    assert.match(malformed.json().detail, /line 1, column \d+/);
    const lines = await post(`${call}\n{"hello":"world"}\nnot json`, { 'content-type': 'application/x-ndjson' });
    assert.equal(lines.statusCode, 400);
    assert.deepEqual(
      lines.json().errors.map((e: { line: number; title: string }) => [e.line, e.title]),
      [
        [2, 'Not an MCP message'],
        [3, 'Malformed JSON'],
      ],
    );
  });

  it('answers 400 for JSON that is not a JSON-RPC/MCP message, and for nesting beyond the limit', async () => {
    const notMcp = await post('{"hello":"world"}');
    assert.equal(notMcp.statusCode, 400);
    assert.equal(notMcp.json().title, 'Not an MCP message');
    const deep = await post('{"jsonrpc":"2.0","method":"x","params":' + '['.repeat(300) + ']'.repeat(300) + '}');
    assert.equal(deep.statusCode, 400);
    assert.equal(deep.json().title, 'Nesting too deep');
  });

  it('answers 422 for an invalid message with ?strict=true, naming the failing path', async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}', {}, '?strict=true');
    assert.equal(response.statusCode, 422);
    assert.equal(response.json().pointer, '/params');
  });

  it('answers 413 for a body over the limit and 415 for a media type it does not take', async () => {
    const big = await post(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(2_100_000) } }));
    assert.equal(big.statusCode, 413);
    assert.match(String(big.headers['content-type']), /^application\/problem\+json/);
    const csv = await post('a,b', { 'content-type': 'text/csv' });
    assert.equal(csv.statusCode, 415);
    assert.match(csv.json().detail, /does not take Content-Type text\/csv; it takes application\/json/);
  });

  it('answers 400 for query parameters that fail their schema', async () => {
    const response = await post(call, {}, '?engine=turbo');
    assert.equal(response.statusCode, 400);
    assert.match(response.json().detail, /engine/);
  });

  it('describes itself in the OpenAPI document', async () => {
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(openapi.openapi, '3.0.3');
    assert.ok(openapi.paths['/convert'].post);
  });
});
