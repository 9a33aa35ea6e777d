// Request bodies that mcp-ld parses itself (so that malformed JSON is reported with its line and column, JSONL line
// by line, and bytes that are not UTF-8 are refused rather than decoded to U+FFFD): JSON, NDJSON/JSONL are handed to
// routes as bytes. Registered inside the plugins that need it.
import type { FastifyInstance } from 'fastify';
import { documentedBody } from '../openapi.js';

export const messageMediaTypes = [
  'application/json',
  'application/x-ndjson',
  'application/jsonl',
  'application/json-lines',
];

export function acceptMessageBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(messageMediaTypes, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** An MCP message, the example of the documented bodies (what "Try it out" in /docs sends). */
const exampleMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: 'hi' } },
};

const exampleRecords = [
  { seq: 1, ts: '2026-11-29T22:56:04.755Z', dir: 'c2s', server: 'everything', session: 'example', msg: exampleMessage },
  {
    seq: 2,
    ts: '2026-11-29T22:56:04.812Z',
    dir: 's2c',
    server: 'everything',
    session: 'example',
    msg: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Echo: hi' }] } },
  },
];

/** The documentation of a body of MCP messages (parsed by mcp-ld, not validated by fastify). */
export function messageBody(description: string) {
  const lines = {
    type: 'string',
    description: 'one JSON-RPC message or capture record a line',
    examples: [exampleRecords.map((record) => JSON.stringify(record)).join('\n') + '\n'],
  };
  return documentedBody(description, {
    'application/json': {
      description: 'one JSON-RPC message, or a JSON array of them (a batch)',
      anyOf: [
        { type: 'object', additionalProperties: true },
        { type: 'array', items: { type: 'object', additionalProperties: true } },
      ],
      examples: [exampleMessage],
    },
    ...Object.fromEntries(messageMediaTypes.slice(1).map((type) => [type, lines])),
  });
}
