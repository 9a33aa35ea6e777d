// POST /convert: lifts the messages in the body (a message, a batch, NDJSON of messages or capture records) and
// answers RDF in the negotiated format, the work done off the event loop (offload.ts). Stores nothing. Any line that is
// not JSON or not a JSON-RPC message fails
// the request (400, every bad line listed); schema validation problems fail it only with ?strict=true (422).
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { protocolVersions, type ProtocolVersion } from '../../schema/index.js';
import { mediaTypes, type RdfFormat } from '../../rdf/formats.js';
import { negotiate, type Offer } from '../negotiate.js';
import { acceptMessageBodies, messageBody, messageMediaTypes } from './raw-bodies.js';
import { problems } from '../openapi.js';
import type { Offload } from '../offload.js';
import { absoluteIriPattern } from '../../core/iri.js';

/** The profile that asks for compacted JSON-LD with the merged context inlined rather than referenced by URL. */
export const inlineContextProfile = 'https://w3id.org/mcp-ld/inline-context';

/** Where the merged context compacted answers reference is served (contexts.ts). */
const mergedContextPath = '/contexts/mcp.jsonld';

/** The formats /convert answers in, in the order it prefers them. */
const formats: { format: RdfFormat; offer: Offer; inlineContext?: true }[] = [
  { format: 'nquads', offer: { type: 'application/n-quads' } },
  { format: 'trig', offer: { type: 'application/trig' } },
  {
    format: 'jsonld',
    offer: { type: 'application/ld+json', params: { profile: 'http://www.w3.org/ns/json-ld#compacted' } },
  },
  {
    format: 'jsonld',
    offer: { type: 'application/ld+json', params: { profile: inlineContextProfile }, onlyNamed: true },
    inlineContext: true,
  },
  {
    format: 'jsonld-expanded',
    offer: { type: 'application/ld+json', params: { profile: 'http://www.w3.org/ns/json-ld#expanded' } },
  },
  { format: 'turtle', offer: { type: 'text/turtle' } },
  { format: 'ntriples', offer: { type: 'application/n-triples' } },
  { format: 'rdfxml', offer: { type: 'application/rdf+xml' } },
];

/** application/ld+json without a profile means compacted (referencing the merged context). */
function pickFormat(accept: string | undefined): (typeof formats)[number] {
  const plainJsonLd = accept !== undefined && /application\/ld\+json(?![^,]*profile)/i.test(accept);
  const offers = formats.map((f) =>
    f.format === 'jsonld' && !f.inlineContext && plainJsonLd ? { ...f.offer, params: {} } : f.offer,
  );
  const index = negotiate(accept, offers);
  if (index < 0) {
    throw McpLdError.of('http.not-acceptable', {
      detail: `no RDF format matches Accept: ${accept}; available: ${[...new Set(formats.map((f) => mediaTypes[f.format]))].join(', ')}, application/ld+json; profile="${inlineContextProfile}"`,
    });
  }
  return formats[index]!;
}

interface ConvertQuery {
  session?: string;
  base?: string;
  protocol?: ProtocolVersion;
  strict?: boolean;
  engine?: 'fast' | 'reference';
}

/** `?protocol=`: the version plain messages speak when they do not say (messages that declare one keep theirs). */
export const protocolQueryField = {
  type: 'string',
  enum: [...protocolVersions],
  description:
    'protocol version of messages that do not declare one (default 2025-06-18; a 2026-07-28 message declares its own in _meta, a session its own by initialize)',
} as const;

export const convertQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // Printable ASCII: the session goes back in the MCP-LD-Session header, which cannot carry other characters (an
    // emoji there made Node throw while answering: a 500).
    session: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'session of plain messages, printable ASCII (default: derived from the body as mcp-ld convert derives it, so the same body gives the same IRIs; returned in MCP-LD-Session)',
    },
    base: {
      type: 'string',
      pattern: absoluteIriPattern,
      maxLength: 500,
      description: 'base of the minted IRIs (default urn:mcp-ld:)',
    },
    strict: { type: 'boolean', default: false, description: 'reject messages that fail schema validation (422)' },
    protocol: protocolQueryField,
    engine: { type: 'string', enum: ['fast', 'reference'], default: 'fast', description: 'lifting engine' },
  },
} as const;

export const convertRoutes: FastifyPluginAsync<{ offload: Offload }> = async (app, { offload }) => {
  acceptMessageBodies(app);

  app.post<{ Querystring: ConvertQuery; Body: Buffer | undefined }>(
    '/convert',
    {
      schema: {
        summary: 'Lift MCP messages to RDF (stores nothing)',
        description: `Body: one JSON-RPC message, a JSON array (batch), or NDJSON of messages or capture records ({"seq","ts","dir","server","session","msg"}), as ${messageMediaTypes.join(', ')}. The answer's format is negotiated: ${formats.map((f) => mediaTypes[f.format]).join(', ')}.`,
        tags: ['convert'],
        querystring: convertQuerySchema,
        consumes: messageMediaTypes,
        response: {
          200: {
            description:
              'the RDF, in the format Accept asks for; MCP-LD-Session, MCP-LD-Messages, MCP-LD-Quads and MCP-LD-Invalid-Messages say what was converted. Compacted JSON-LD references the merged context by URL (also in a Link header), or inlines it for the profile ' +
              inlineContextProfile,
            headers: {
              'MCP-LD-Session': { type: 'string', description: 'the session plain messages were put in' },
              'MCP-LD-Messages': { type: 'integer', description: 'messages converted' },
              'MCP-LD-Quads': { type: 'integer', description: 'quads written' },
              'MCP-LD-Invalid-Messages': {
                type: 'integer',
                description: 'messages that fail schema validation (kept, with mld:ValidationResult nodes)',
              },
            },
            content: Object.fromEntries(
              [...new Set(formats.map((f) => mediaTypes[f.format]))].map((type) => [
                type,
                {
                  schema: type.startsWith('application/ld+json')
                    ? { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'array' }] }
                    : { type: 'string' },
                },
              ]),
            ),
          },
          ...problems(406, 408, 413, 415, 422, 429, 504),
        },
      },
      config: messageBody('the MCP messages to convert'),
    },
    async (request, reply) => {
      const { format, inlineContext } = pickFormat(request.headers.accept);
      const contextUrl =
        format === 'jsonld' && !inlineContext ? `${request.protocol}://${request.host}${mergedContextPath}` : undefined;
      const converted = await offload.convert({
        body: request.body ?? '',
        ...(request.query.session !== undefined ? { session: request.query.session } : {}),
        ...(contextUrl ? { contextUrl } : {}),
        ...(request.query.base ? { base: request.query.base } : {}),
        ...(request.query.protocol ? { protocol: request.query.protocol } : {}),
        strict: request.query.strict === true,
        engine: request.query.engine ?? 'fast',
        format,
      });
      if (contextUrl)
        reply.header('Link', `<${contextUrl}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`);
      return reply
        .header('MCP-LD-Session', converted.session)
        .header('MCP-LD-Messages', String(converted.messages))
        .header('MCP-LD-Quads', String(converted.quads))
        .header('MCP-LD-Invalid-Messages', String(converted.invalid))
        .type(mediaTypes[format])
        .send(converted.body);
    },
  );
};
