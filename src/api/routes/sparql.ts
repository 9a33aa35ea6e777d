// GET|POST /sparql: the SPARQL 1.1 Protocol over the store. The query comes in the `query` parameter (GET), an
// urlencoded POST, or an application/sparql-query POST, its dataset in `default-graph-uri` / `named-graph-uri` (else
// its own FROM / FROM NAMED, else the union of the session graphs); results by Accept. A GET with no parameters
// answers the service description. An update (application/sparql-update, or an urlencoded update=; POST only) needs
// a configured write token, is checked by parse-update.ts and answers 204. Texts are checked, and queries bounded to
// the result limits, off the event loop (offload.ts); large answers in the formats that allow it stream from a store
// that can (stream-answer.ts). Bodies are read as bytes: what is not UTF-8 (raw, or
// percent-encoded in a form) is refused, never read as U+FFFD.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import type { ServiceConfig } from '../../core/config.js';
import type { QueryDataset } from '../../store/quad-store.js';
import { checkDataset } from '../../store/query-dataset.js';
import {
  graphFormats,
  resultMediaAliases,
  resultMediaTypes,
  runQueryStream,
  runQueryText,
  solutionFormats,
  streamsIn,
  type ResultFormat,
} from '../../query/index.js';
import { answerBody } from '../stream-answer.js';
import { descriptionFormats, type ServiceFacts } from '../service-description.js';
import { mediaTypes } from '../../rdf/formats.js';
import { negotiate } from '../negotiate.js';
import { pickResult, resultOffers } from '../result-offers.js';
import { requireWriteToken } from '../write-token.js';
import { answerIn, documentedBody, problems, writeTokenIfConfigured } from '../openapi.js';
import { decodeUtf8, invalidUtf8Offset } from '../../core/utf8.js';
import type { StoreRouteOptions } from './store-route-options.js';

/** The time limit and the result limits of every query the service runs. */
export function resultLimits(config: ServiceConfig): { timeoutMs: number; maxRows: number; maxBytes: number } {
  return { timeoutMs: config.queryTimeoutMs, maxRows: config.maxResultRows, maxBytes: config.maxResultBytes };
}

interface ProtocolParameters {
  query?: string | string[];
  update?: string | string[];
  'default-graph-uri'?: string | string[];
  'named-graph-uri'?: string | string[];
  'using-graph-uri'?: string | string[];
  'using-named-graph-uri'?: string | string[];
}

const datasetParameters = ['default-graph-uri', 'named-graph-uri', 'using-graph-uri', 'using-named-graph-uri'] as const;

function protocolError(detail: string): McpLdError {
  return McpLdError.of('sparql.protocol', { detail });
}

const hex = /^[0-9A-Fa-f]{2}$/;

/** One name or value of an urlencoded form as the bytes it stands for (`+` a space, `%XX` a byte, as URLSearchParams
 *  reads it), refused when those bytes are not UTF-8. */
function formComponent(component: string): string {
  const raw = Buffer.from(component.replace(/\+/g, ' '), 'utf8');
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const escaped = raw[i] === 0x25 ? raw.toString('latin1', i + 1, i + 3) : '';
    if (hex.test(escaped)) {
      bytes.push(parseInt(escaped, 16));
      i += 2;
    } else bytes.push(raw[i]!);
  }
  const decoded = Buffer.from(bytes);
  const bad = invalidUtf8Offset(decoded);
  if (bad >= 0)
    throw McpLdError.of('input.invalid-utf8', {
      detail: `the form percent-encodes bytes that are not UTF-8 (byte ${bad} of ${JSON.stringify(component.slice(0, 60))} decoded is 0x${decoded[bad]!.toString(16).toUpperCase()})`,
    });
  return decoded.toString('utf8');
}

/** The parameters of an urlencoded form body (a name given twice: all its values). */
function formParameters(body: Buffer): Record<string, string | string[]> {
  // No prototype: a form may name a parameter `__proto__`.
  const parameters = Object.create(null) as Record<string, string | string[]>;
  for (const pair of decodeUtf8(body).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = formComponent(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : formComponent(pair.slice(equals + 1));
    const existing = parameters[key];
    parameters[key] =
      existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return parameters;
}

function single(name: string, value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) {
    if (value.length > 1) throw protocolError(`give ${name} once`);
    return value[0];
  }
  return value;
}

function all(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The dataset the protocol names (SPARQL 1.1 Protocol §2.1.4): each default-graph-uri a graph merged into the default
 * graph, each named-graph-uri a named graph; with either given, the other's graphs are none. Absent when neither is.
 */
function protocolDataset(parameters: ProtocolParameters): QueryDataset | undefined {
  const dataset = {
    defaultGraphs: all(parameters['default-graph-uri']),
    namedGraphs: all(parameters['named-graph-uri']),
  };
  if (dataset.defaultGraphs.length === 0 && dataset.namedGraphs.length === 0) return undefined;
  try {
    return checkDataset(dataset);
  } catch (error) {
    throw protocolError(`default-graph-uri and named-graph-uri take absolute IRIs: ${(error as McpLdError).detail}`);
  }
}

/** The media types a POST to /sparql may carry; any other body is a 415. */
/** The endpoint's own URL, as the request reached it: the service's name, and the base of a query's relative IRIs. */
function endpointUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
}

const bodyTypes = ['application/x-www-form-urlencoded', 'application/sparql-query', 'application/sparql-update'];

/** The service description's formats and their media types, Turtle first. */
const descriptionOffers = descriptionFormats.map((format) => ({ format, type: mediaTypes[format].split(';')[0]! }));

export const sparqlRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, metrics, offload }) => {
  // Only the protocol's bodies: text/plain or JSON (which Fastify would read) is a 415 naming the ones it takes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, formParameters(body as Buffer));
    } catch (error) {
      done(error as Error);
    }
  });
  app.addContentTypeParser(
    ['application/sparql-query', 'application/sparql-update'],
    { parseAs: 'buffer' },
    (_request, body, done) => {
      try {
        done(null, decodeUtf8(body as Buffer));
      } catch (error) {
        done(error as Error);
      }
    },
  );

  /** An update: alone, then the write token, then the checks of parse-update.ts, then the store; 204 once applied. */
  const applyUpdate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    parameters: ProtocolParameters,
    text: string | undefined,
  ) => {
    if (parameters.query !== undefined) throw protocolError('give either a query or an update, not both');
    requireWriteToken(request, config.writeToken, true);
    const dataset = datasetParameters.find((name) => parameters[name] !== undefined);
    if (dataset)
      throw protocolError(
        `${dataset} is not supported with an update: it reads and writes the session graphs it names with GRAPH`,
      );
    if (text === undefined || text.trim() === '')
      throw protocolError('no update: send it as an application/sparql-update body or an urlencoded update= body');
    await store.update(await offload.update(text), { timeoutMs: config.queryTimeoutMs });
    metrics.count('mcpld_sparql_updates_total', 'SPARQL updates applied');
    return reply.status(204).send();
  };

  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    parameters: ProtocolParameters,
    body?: { query?: string },
  ) => {
    if (parameters.update !== undefined) {
      throw protocolError(
        parameters.query !== undefined || body
          ? 'give either a query or an update, not both'
          : 'an update is sent by POST, as an application/sparql-update body or an urlencoded update= body, never in the URL',
      );
    }
    const text = body?.query ?? single('query', parameters.query);
    if (text === undefined || text.trim() === '')
      throw protocolError(
        'no query: pass it as the query parameter, an urlencoded query= body, or an application/sparql-query body',
      );
    const dataset = protocolDataset(parameters);
    const parsed = await offload.query(text, endpointUrl(request), store.sortedRowLimit);
    const { format, contentType } = pickResult(request.headers.accept, resultOffers(parsed.form, 'sparql'));
    const started = performance.now();
    try {
      const options = { ...resultLimits(config), ...(dataset ? { dataset } : {}) };
      if (store.queryStream && streamsIn(parsed.form, format)) {
        // Streamed: the store keeps the answer and hands it over a chunk at a time as the client reads it (a small
        // answer, whole in its first chunk, is sent at once with its length).
        return reply
          .type(contentType)
          .header('Vary', 'Accept')
          .send(await answerBody(await runQueryStream(store, parsed, options), format, offload));
      }
      const answer = await runQueryText(store, parsed, options);
      return reply
        .type(contentType)
        .header('Vary', 'Accept')
        .send(await offload.result(answer, format));
    } finally {
      metrics.observeQuery((performance.now() - started) / 1000);
    }
  };

  /** The service description (GET with no parameters): Turtle, or JSON-LD, N-Triples, RDF/XML by Accept. */
  const describe = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = negotiate(request.headers.accept, descriptionOffers);
    if (index < 0)
      throw McpLdError.of('http.not-acceptable', {
        detail: `the service description is available as ${descriptionOffers.map((o) => o.type).join(', ')}, not ${request.headers.accept}`,
      });
    const { format, type } = descriptionOffers[index]!;
    const facts: ServiceFacts = {
      endpoint: endpointUrl(request),
      updates: config.writeToken !== undefined,
      resultFormats: [...solutionFormats, ...graphFormats],
      graphs: await store.graphs(),
      ...resultLimits(config),
    };
    return reply
      .type(type)
      .header('Vary', 'Accept')
      .send(await offload.describe(facts, format));
  };

  const queryString = {
    type: 'object',
    properties: {
      query: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description:
          'a SPARQL 1.1 query (the mcp:, jrpc:, mld:, mldx:, rdf:, rdfs:, xsd:, owl: prefixes are predeclared)',
      },
      'default-graph-uri': {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: "a graph of the default graph (several: their merge); replaces the query's FROM",
      },
      'named-graph-uri': {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: "a named graph (several: each); replaces the query's FROM NAMED",
      },
    },
  } as const;
  const produces = Object.entries(resultMediaTypes).flatMap(([format, type]) =>
    format === 'table' ? [] : [type.split(';')[0]!, ...(resultMediaAliases[format as ResultFormat] ?? [])],
  );

  app.get<{ Querystring: ProtocolParameters }>(
    '/sparql',
    {
      schema: {
        summary: 'SPARQL 1.1 query (GET), or the service description (GET with no parameters)',
        description:
          'With no parameters: the SPARQL 1.1 Service Description of this endpoint (Turtle; JSON-LD, N-Triples or RDF/XML by Accept). ' +
          "The dataset: default-graph-uri and named-graph-uri (each any number of times), else the query's FROM / FROM NAMED, else the union of the session graphs as the default graph and every session graph as a named graph.",
        tags: ['sparql'],
        // The example only here: a POST carries its query in the body.
        querystring: {
          ...queryString,
          properties: {
            ...queryString.properties,
            query: {
              ...queryString.properties.query,
              examples: ['SELECT ?session ?version WHERE { ?session mld:protocolVersion ?version }'],
            },
          },
        },
        response: {
          200: answerIn(
            'the results of the query in the format Accept asks for, or (no parameters) the service description',
            [...produces, ...descriptionOffers.map((o) => o.type)],
          ),
          ...problems(406, 413, 422, 429, 502, 503, 504),
        },
      },
    },
    (request, reply) =>
      Object.keys(request.query).length === 0 ? describe(request, reply) : answer(request, reply, request.query),
  );
  app.post<{ Querystring: ProtocolParameters; Body: string | ProtocolParameters }>(
    '/sparql',
    {
      schema: {
        summary:
          'SPARQL 1.1 query (urlencoded or application/sparql-query) or update (application/sparql-update or urlencoded update=; needs the write token)',
        description:
          'A query answers its results by Accept, over the dataset of default-graph-uri and named-graph-uri (in the URL or the form), else its own FROM / FROM NAMED, else the union of the session graphs. ' +
          'An update needs MCPLD_WRITE_TOKEN configured and presented as a bearer token (401 without it, 403 when wrong or when no token is configured), and answers 204 once applied ' +
          '(the embedded store: all of it or nothing, on disk before the answer). Refused with 400 before anything runs: a query and an update together, malformed text (with its line and column), a query, LOAD, SERVICE, ' +
          'graphs not named with GRAPH (triples outside GRAPH, WITH, USING, CLEAR/DROP DEFAULT, NAMED or ALL), NOW(), RAND(), UUID() and STRUUID(), and dataset parameters. ' +
          'The mcp:, jrpc:, mld:, mldx:, rdf:, rdfs:, xsd:, owl: prefixes are predeclared. 413 past MCPLD_MAX_QUERY_BYTES, 400 past MCPLD_MAX_QUERY_DEPTH or too complex for the engine, 415 for a body of another media type, ' +
          '422 for an answer past MCPLD_MAX_RESULT_ROWS or MCPLD_MAX_RESULT_BYTES, 429 with Retry-After when MCPLD_MAX_QUEUED queries wait, 504 past the time limit (MCPLD_QUERY_TIMEOUT), 503 when the remote store is down.',
        tags: ['sparql'],
        security: writeTokenIfConfigured,
        querystring: queryString,
        consumes: bodyTypes,
        response: {
          200: answerIn(
            'the results of a query, in the format Accept asks for (SPARQL results as JSON, XML, CSV or TSV; a graph as Turtle, N-Triples, N-Quads, JSON-LD or RDF/XML)',
            produces,
          ),
          204: { description: 'the update was applied', type: 'null' },
          ...problems(401, 403, 406, 408, 413, 415, 422, 429, 502, 503, 504, 507),
        },
      },
      config: documentedBody(
        'a query (urlencoded query=, or application/sparql-query) or an update (urlencoded update=, or application/sparql-update: needs the write token)',
        {
          'application/x-www-form-urlencoded': {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'a SPARQL 1.1 query' },
              update: { type: 'string', description: 'a SPARQL 1.1 update (write token)' },
              'default-graph-uri': { type: 'string', description: 'a graph of the default graph' },
              'named-graph-uri': { type: 'string', description: 'a named graph' },
            },
            examples: [
              {
                query:
                  'SELECT ?tool (COUNT(*) AS ?calls) WHERE { ?call a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?tool } GROUP BY ?tool',
              },
            ],
          },
          'application/sparql-query': { type: 'string', examples: ['SELECT (COUNT(*) AS ?quads) WHERE { ?s ?p ?o }'] },
          'application/sparql-update': {
            type: 'string',
            examples: [
              'INSERT DATA { GRAPH <urn:mcp-ld:session/notes> { <urn:mcp-ld:session/notes> rdfs:comment "reviewed" } }',
            ],
          },
        },
      ),
    },
    (request, reply) => {
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type === 'application/sparql-query')
        return answer(request, reply, request.query, { query: request.body as string });
      if (type === 'application/sparql-update')
        return applyUpdate(request, reply, request.query, request.body as string);
      // A POST without a body (its query or update in the URL) has no form to read.
      const form = (request.body ?? {}) as ProtocolParameters;
      const parameters = mergeParameters(request.query, form);
      if (form.update !== undefined)
        return applyUpdate(request, reply, { ...parameters, update: undefined }, single('update', form.update));
      return answer(request, reply, parameters);
    },
  );
};

/** The parameters of the URL and of the form together (a name in both: the values of both). */
function mergeParameters(url: ProtocolParameters, form: ProtocolParameters): ProtocolParameters {
  // No prototype: a form may name a parameter `__proto__`.
  const merged = Object.assign(Object.create(null) as Record<string, string | string[] | undefined>, url);
  for (const [name, value] of Object.entries(form) as [keyof ProtocolParameters, string | string[] | undefined][]) {
    const existing = merged[name];
    merged[name] = existing === undefined ? value : value === undefined ? existing : [...all(existing), ...all(value)];
  }
  return merged as ProtocolParameters;
}
