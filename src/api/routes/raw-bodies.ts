// Request bodies that mcp-ld parses itself (so that malformed JSON is reported with its line and column, JSONL line
// by line, and bytes that are not UTF-8 are refused rather than decoded to U+FFFD): JSON, NDJSON/JSONL are handed to
// routes as bytes. Registered inside the plugins that need it.
import type { FastifyInstance } from 'fastify';

export const messageMediaTypes = ['application/json', 'application/x-ndjson', 'application/jsonl', 'application/json-lines'];

export function acceptMessageBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(messageMediaTypes, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
