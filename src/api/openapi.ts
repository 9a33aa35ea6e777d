// The OpenAPI document (/openapi.json, and the page at /docs): generated from the route schemas, plus what every
// route shares — the problem+json schema of its 4xx/5xx answers, the write-token security scheme, the route groups
// (tags) — and the documentation of bodies mcp-ld parses itself (messages, SPARQL), which fastify must not validate.
import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { maxSessionLength } from '../lift/records.js';

/** RFC 9457 problem details, as problem-handler.ts writes them. */
const problemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem details (application/problem+json)',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'about:blank: the status and code say what kind of problem it is' },
    title: { type: 'string', description: 'the kind of problem, e.g. "Malformed JSON"' },
    status: { type: 'integer', description: 'the HTTP status' },
    detail: { type: 'string', description: 'what exactly is wrong with this request' },
    code: { type: 'string', description: 'a stable machine-readable code, e.g. input.malformed-json' },
    pointer: { type: 'string', description: 'a JSON pointer into the input' },
    line: { type: 'integer', description: 'the 1-based line of the input' },
    errors: {
      type: 'array',
      description: 'every failed input line, when there are several',
      items: { type: 'object', additionalProperties: true },
    },
    stored: {
      type: 'object',
      description: 'what was stored before an ingest failed (nothing after it)',
      additionalProperties: true,
    },
  },
  additionalProperties: true,
} as const;

const statusTitles: Record<number, string> = {
  400: 'Bad request: malformed input (with its line and column), a parameter that fails its schema, a bad URL',
  401: 'Unauthorized: the write token is missing',
  403: 'Forbidden: a wrong write token, writes of this kind disabled (no MCPLD_WRITE_TOKEN), or a write from a web page',
  404: 'Not found',
  406: 'Not acceptable: no format the route has matches Accept',
  408: 'Request timeout: the body stopped arriving (MCPLD_BODY_TIMEOUT_MS)',
  413: 'Payload too large (MCPLD_BODY_LIMIT, MCPLD_MAX_QUERY_BYTES)',
  415: 'Unsupported media type: a body of a type the route does not take',
  421: 'Misdirected request: a Host this service does not answer for (MCPLD_ALLOWED_HOSTS)',
  422: 'Unprocessable content: invalid messages with strict=true, an answer past the result limits, a request too demanding',
  423: 'Locked: the data directory is held by a process that does not share it',
  429: 'Too many requests: wait for Retry-After',
  500: 'Internal error (logged)',
  502: 'Bad gateway: the remote store answered what is not SPARQL',
  503: 'Service unavailable: the remote store is down',
  504: 'Gateway timeout: the query time limit (MCPLD_QUERY_TIMEOUT)',
  507: 'Insufficient storage: the embedded store or the disk of its data directory is full',
};

/** What any route may answer: an unknown Host (421), a URL that does not decode (400), a failure (500). */
const everyRoute = [400, 421, 500];

/** The problem+json answers of a route, each with the shared schema. */
export function problems(...statuses: number[]): Record<number, object> {
  const all = [...new Set([...everyRoute, ...statuses])].sort();
  return Object.fromEntries(
    all.map((status) => [
      status,
      {
        description: statusTitles[status] ?? 'Problem',
        content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
      },
    ]),
  );
}

/** A 2xx answer in several media types, each with its schema (a text body is a string). */
export function answer(description: string, content: Record<string, object>): object {
  return {
    description,
    content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
  };
}

/** A media type whose body is one JSON value (not JSON Lines, not NDJSON). */
export function isJsonType(type: string): boolean {
  return /^application\/(json|[^/]+\+json)$/.test(type);
}

/** The schema of a body in `type`: SPARQL JSON results, other JSON, or text. */
function bodySchema(type: string): object {
  if (type === 'application/sparql-results+json') {
    return {
      type: 'object',
      required: ['head'],
      properties: {
        head: { type: 'object', additionalProperties: true },
        results: { type: 'object', additionalProperties: true },
        boolean: { type: 'boolean' },
      },
      additionalProperties: true,
    };
  }
  if (isJsonType(type)) return { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'array' }] };
  return { type: 'string' };
}

/** A 2xx answer in any of `types`, each with the schema of its kind (results JSON, JSON, text). */
export function answerIn(description: string, types: readonly string[]): object {
  return answer(
    description,
    Object.fromEntries(
      [...new Set(types.map((type) => type.split(';')[0]!.trim()))].map((type) => [type, bodySchema(type)]),
    ),
  );
}

/** The scheme writes present: `Authorization: Bearer <MCPLD_WRITE_TOKEN>`. */
const writeTokenScheme = 'writeToken';

/** Needs the write token when one is configured (ingestion: open without one). */
export const writeTokenIfConfigured: Record<string, string[]>[] = [{ [writeTokenScheme]: [] }, {}];
/** Needs the write token, and is refused when none is configured (deletes, updates). */
export const writeTokenRequired: Record<string, string[]>[] = [{ [writeTokenScheme]: [] }];

/** The `:id` of the session routes (GET and DELETE /sessions/:id, its messages): a session id as records take it. */
export const sessionIdParam = {
  type: 'string',
  minLength: 1,
  maxLength: maxSessionLength,
  description: 'the session id (GET /sessions lists them)',
  examples: ['57cd8539-bf6a-4833-ae14-361ffa3a23c9'],
} as const;

/** The route groups of the document. */
const tags = [
  { name: 'convert', description: 'MCP messages to RDF, storing nothing' },
  { name: 'ingest', description: 'MCP messages lifted and stored' },
  { name: 'sparql', description: 'the SPARQL 1.1 Protocol: queries, updates, the service description' },
  { name: 'queries', description: 'the named, parameterised queries of queries/' },
  { name: 'sessions', description: 'the session graphs of the store' },
  { name: 'vocabulary', description: 'the JSON-LD contexts, the OWL ontology and the SHACL shapes' },
  { name: 'service', description: 'health and metrics' },
  { name: 'console', description: 'the web console and its live updates' },
] as const;

/**
 * A route option that documents a request body without fastify validating it: bodies of messages and of SPARQL are
 * parsed by mcp-ld itself (bytes, so that malformed input is named by line and column). `content`: a schema (with
 * `examples`) per media type.
 */
export function documentedBody(description: string, content: Record<string, object>) {
  return {
    swaggerTransform: ({ schema, url }: { schema: FastifySchema; url: string }) => ({
      schema: {
        ...schema,
        body: {
          description,
          content: Object.fromEntries(Object.entries(content).map(([type, body]) => [type, { schema: body }])),
        },
      },
      url,
    }),
  };
}

/** Registers the shared schemas, the document at /openapi.json and the page at /docs (assets bundled, not fetched). */
export async function registerOpenApi(app: FastifyInstance, info: { version: string }): Promise<void> {
  app.addSchema(problemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'mcp-ld',
        version: info.version,
        description:
          'A JSON-LD / RDF bridge for the Model Context Protocol: conversion, ingestion, SPARQL, named queries, contexts and the ontology. Every 4xx and 5xx answer is application/problem+json.',
      },
      tags: [...tags],
      components: {
        securitySchemes: {
          [writeTokenScheme]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'MCPLD_WRITE_TOKEN: ingestion needs it when it is configured; deletes and SPARQL Update need it, and are refused without one',
          },
        },
      },
    },
    // Shared schemas are named by their $id in the document (#/components/schemas/Problem).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
