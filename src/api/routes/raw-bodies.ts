// Request bodies that mcp-ld parses itself (so that malformed JSON is reported with its line and column, and JSONL
// line by line): JSON, NDJSON/JSONL are handed to routes as text. Registered inside the plugins that need it.
import type { FastifyInstance } from 'fastify';

export const messageMediaTypes = ['application/json', 'application/x-ndjson', 'application/jsonl', 'application/json-lines'];

export function acceptMessageBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(messageMediaTypes, { parseAs: 'string' }, (_request, body, done) => done(null, body));
}
