// The OpenAPI document of a running service: valid OpenAPI 3 (checked by an OpenAPI validator), every route with its
// summary, tag, parameters, bodies and every answer it can give, and — driven through the document itself — every route
// answers the requests its examples make with a status and a body that the document declares, problem+json included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { request as httpRequest } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { isJsonType } from '../../src/api/openapi.js';
import { readServiceConfig } from '../../src/core/config.js';
import { trafficFile } from '../helpers/corpus.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: Json[];
  parameters?: { name: string; in: string; required?: boolean; example?: unknown; schema?: Json }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}

const token = 'openapi-test-token';
const methods = ['get', 'post', 'delete'] as const;

describe('api: the OpenAPI document', function () {
  this.timeout(120_000);
  let app: FastifyInstance;
  let base: string;
  let doc: {
    openapi: string;
    paths: Record<string, Partial<Record<(typeof methods)[number], Operation>>>;
    components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
    tags: { name: string }[];
  };
  const ajv = new Ajv({ strict: false, allErrors: true });

  before(async () => {
    app = await buildServer(readServiceConfig({}, { MCPLD_WRITE_TOKEN: token }), { logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const ingested = await fetch(`${base}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
      body: readFileSync(trafficFile),
    });
    assert.equal(ingested.status, 200, await ingested.text());
    doc = (await (await fetch(`${base}/openapi.json`)).json()) as typeof doc;
  });
  after(() => app.close());

  /** A schema with its references to the document's components replaced by what they name. */
  const resolved = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(resolved);
    if (schema === null || typeof schema !== 'object') return schema;
    const ref = (schema as Json)['$ref'];
    if (typeof ref === 'string') return resolved(doc.components.schemas[ref.replace('#/components/schemas/', '')]);
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
  };

  /**
   * Documented like the others, but not driven here: a stream that never ends (test/api/console-routes.test.ts reads
   * it).
   */
  const streams = new Set(['/events']);

  const operations = () =>
    Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        methods.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
      )
      // DELETE last: it removes the session the other examples read.
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

  it('is a valid OpenAPI 3 document', async () => {
    assert.match(doc.openapi, /^3\./);
    const result = await new Validator().validate(doc as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('gives every route a summary and a tag, every 4xx/5xx the problem+json schema, and writes the write-token scheme', () => {
    assert.deepEqual(doc.components.securitySchemes['writeToken'], {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes['writeToken']!['description'],
    });
    const tagNames = new Set(doc.tags.map((tag) => tag.name));
    for (const { path, method, operation } of operations()) {
      const name = `${method.toUpperCase()} ${path}`;
      assert.ok(operation.summary, `${name} has a summary`);
      assert.ok(operation.tags?.length === 1 && tagNames.has(operation.tags[0]!), `${name} has a declared tag`);
      assert.ok(
        Object.keys(operation.responses).some((status) => status.startsWith('2')),
        `${name} declares its success`,
      );
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        assert.deepEqual(
          Object.keys(response.content ?? {}),
          ['application/problem+json'],
          `${name} ${status} is problem+json`,
        );
        assert.deepEqual(
          response.content!['application/problem+json']!.schema,
          { $ref: '#/components/schemas/Problem' },
          `${name} ${status}`,
        );
      }
      for (const status of ['400', '421', '500']) assert.ok(operation.responses[status], `${name} declares ${status}`);
    }
    const secured = operations()
      .filter(({ operation }) => operation.security)
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(secured.sort(), ['DELETE /sessions/{id}', 'POST /ingest', 'POST /sparql']);
    for (const path of ['/convert', '/ingest']) {
      const body = doc.paths[path]!.post!.requestBody!;
      assert.deepEqual(Object.keys(body.content), [
        'application/json',
        'application/x-ndjson',
        'application/jsonl',
        'application/json-lines',
      ]);
      for (const media of Object.values(body.content))
        assert.ok(media.example, `${path} has an example body for "Try it out"`);
    }
    const named = doc.paths['/queries/{name}']!.get!.parameters!;
    assert.deepEqual(
      named.find((p) => p.in === 'path'),
      { ...named.find((p) => p.in === 'path'), name: 'name', required: true, example: 'tool-calls' },
    );
    const queryParameters = named.filter((p) => p.in === 'query').map((p) => p.name);
    for (const parameter of ['session', 'since', 'until', 'tool', 'limit', 'method'])
      assert.ok(queryParameters.includes(parameter), `GET /queries/{name} documents ${parameter}`);
    assert.ok(
      !queryParameters.includes('additionalProperties') && !queryParameters.includes('type'),
      'no parameter made of the schema keywords',
    );
  });

  /** The request an operation's examples make, with `accept` and, for a body, the media type `bodyType`. */
  const exampleRequest = (path: string, method: string, operation: Operation, accept?: string, bodyType?: string) => {
    let url = path;
    const query = new URLSearchParams();
    for (const parameter of operation.parameters ?? []) {
      if (parameter.example === undefined) continue;
      const value = Array.isArray(parameter.example) ? String(parameter.example[0]) : String(parameter.example);
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
      else if (parameter.in === 'query') query.set(parameter.name, value);
    }
    assert.doesNotMatch(url, /\{/, `${method.toUpperCase()} ${path}: every path parameter has an example`);
    const headers: Record<string, string> = {};
    if (accept) headers['accept'] = accept;
    if (operation.security) headers['authorization'] = `Bearer ${token}`;
    let body: string | undefined;
    if (operation.requestBody) {
      const type = bodyType ?? Object.keys(operation.requestBody.content)[0]!;
      const example = operation.requestBody.content[type]!.example;
      headers['content-type'] = type;
      body =
        typeof example === 'string'
          ? example
          : type === 'application/x-www-form-urlencoded'
            ? new URLSearchParams(example as Record<string, string>).toString()
            : JSON.stringify(example);
    }
    return {
      url: `${base}${url}${query.size > 0 ? `?${query}` : ''}`,
      init: { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) },
    };
  };

  /** Checks an answer against what the document declares for its status and media type; its status. */
  const checkAnswer = async (name: string, operation: Operation, response: Response): Promise<number> => {
    const declared = operation.responses[String(response.status)];
    const text = await response.text();
    assert.ok(declared, `${name} answered ${response.status}, which it does not declare: ${text.slice(0, 300)}`);
    if (!declared.content || response.status === 204 || response.status === 304) return response.status;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const media = declared.content[type];
    assert.ok(
      media,
      `${name} ${response.status} answered ${type}, which it does not declare (${Object.keys(declared.content).join(', ')})`,
    );
    const value = isJsonType(type) ? JSON.parse(text) : text;
    const validate = ajv.compile(resolved(media.schema ?? {}) as object);
    assert.ok(
      validate(value),
      `${name} ${response.status} ${type}: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`,
    );
    return response.status;
  };

  it('answers every route the requests its examples make, in every media type it declares, as the document says', async () => {
    let checked = 0;
    for (const { path, method, operation } of operations().filter(({ path }) => !streams.has(path))) {
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      const accepts = [undefined, ...new Set(successes.flatMap(([, response]) => Object.keys(response.content ?? {})))];
      const bodyTypes = operation.requestBody ? Object.keys(operation.requestBody.content) : [undefined];
      const statuses: number[] = [];
      for (const bodyType of bodyTypes) {
        for (const accept of method === 'delete' ? [undefined] : accepts) {
          const name = `${method.toUpperCase()} ${path} (Accept ${accept ?? 'none'}${bodyType ? `, ${bodyType}` : ''})`;
          const { url, init } = exampleRequest(path, method, operation, accept, bodyType);
          statuses.push(await checkAnswer(name, operation, await fetch(url, init)));
          checked++;
        }
      }
      assert.ok(
        statuses.some((status) => status >= 200 && status < 300),
        `${method.toUpperCase()} ${path}: its examples succeed (${statuses.join(', ')})`,
      );
    }
    assert.ok(checked > 60, `${checked} requests`);
  });

  /** A request with a Host header of its own (fetch sets Host itself), answered as a Response. */
  const sentWithHost = (
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
    host: string,
  ) =>
    new Promise<Response>((resolve, reject) => {
      const request = httpRequest(url, { method: init.method, headers: { ...init.headers, host } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve(
            new Response(Buffer.concat(chunks), {
              status: answer.statusCode!,
              headers: answer.headers as Record<string, string>,
            }),
          ),
        );
      });
      request.on('error', reject);
      request.end(init.body);
    });

  it('answers the problems it declares: a Host it does not serve, a malformed body, no format that fits, a missing token', async () => {
    for (const { path, method, operation } of operations().filter(({ path }) => !streams.has(path))) {
      const { url, init } = exampleRequest(path, method, operation);
      const misdirected = await sentWithHost(url, init, 'elsewhere.example');
      assert.equal(await checkAnswer(`${method.toUpperCase()} ${path} for another Host`, operation, misdirected), 421);
      if (operation.responses['406'] && method !== 'delete') {
        const unacceptable = await fetch(url, { ...init, headers: { ...init.headers, accept: 'image/png' } });
        assert.equal(
          await checkAnswer(`${method.toUpperCase()} ${path} for Accept image/png`, operation, unacceptable),
          406,
          `${method.toUpperCase()} ${path}`,
        );
      }
      if (operation.requestBody?.content['application/json']) {
        const malformed = await fetch(url, {
          ...init,
          headers: { ...init.headers, 'content-type': 'application/json' },
          body: '{"jsonrpc": "2.0",',
        });
        assert.equal(
          await checkAnswer(`${method.toUpperCase()} ${path} with malformed JSON`, operation, malformed),
          400,
        );
      }
      if (operation.security && operation.responses['401']) {
        const { authorization: _, ...anonymous } = init.headers;
        const refused = await fetch(url, { ...init, headers: anonymous });
        assert.equal(
          await checkAnswer(`${method.toUpperCase()} ${path} without the token`, operation, refused),
          path === '/sparql' ? 200 : 401,
          'a query needs no token',
        );
      }
    }
    const unknown = doc.paths['/queries/{name}']!.get!;
    assert.equal(await checkAnswer('GET /queries/nope', unknown, await fetch(`${base}/queries/nope`)), 404);
  });
});
