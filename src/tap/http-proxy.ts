// A recording reverse proxy for MCP's Streamable HTTP transport. Requests are forwarded to the target as they come
// (same method, path, headers and body); responses stream back unchanged — JSON bodies and SSE streams alike —
// while the proxy records the JSON-RPC messages on both sides. The session is the Mcp-Session-Id header (the
// server's answer to initialize names it; later requests carry it). Nothing the proxy records delays the relay.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Recorder, Observed } from './recorder.js';

/** Headers that belong to one hop, not to the exchange (RFC 9110 §7.6.1). */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name) && value !== undefined) out[name] = value;
  return out;
}

/** The JSON-RPC messages of a body: one message, or each member of a batch. Anything else is recorded as is. */
function messagesOf(body: string): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed.map((m) => JSON.stringify(m)) : [body];
  } catch {
    return body.trim() === '' ? [] : [body];
  }
}

/** Parses the `data:` fields of a text/event-stream as it arrives; each complete event's data is one message. */
class SseReader {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string, onEvent: (data: string) => void): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (this.data.length > 0) onEvent(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  }
}

export interface ProxyOptions {
  target: URL;
  recorder: Recorder;
  /** Session of exchanges that carry no Mcp-Session-Id (a server without sessions). */
  defaultSession: string;
}

export function createRecordingProxy({ target, recorder, defaultSession }: ProxyOptions): http.Server {
  return http.createServer((request: IncomingMessage, response: ServerResponse) => {
    const ts = new Date().toISOString();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = http.request(
        new URL(request.url ?? '/', target),
        { method: request.method ?? 'GET', headers: { ...forwardedHeaders(request.headers), host: target.host } },
        (answer) => {
          const sessionHeader = answer.headers['mcp-session-id'] ?? request.headers['mcp-session-id'];
          const session = (Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader) ?? defaultSession;
          // The request's messages are recorded once the session is known (initialize learns it from the answer).
          const sent: Observed[] = messagesOf(body.toString('utf8')).map((text) => ({ dir: 'c2s', ts, session, text }));
          if (sent.length > 0) setImmediate(() => recorder.recordAll(sent));
          response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
          const type = String(answer.headers['content-type'] ?? '');
          const sse = type.startsWith('text/event-stream') ? new SseReader() : undefined;
          const received: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => {
            response.write(chunk);
            if (sse) {
              const at = new Date().toISOString();
              sse.push(chunk.toString('utf8'), (data) => setImmediate(() => recorder.recordAll([{ dir: 's2c', ts: at, session, text: data }])));
            } else received.push(chunk);
          });
          answer.on('end', () => {
            response.end();
            if (!sse && type.includes('json')) {
              const at = new Date().toISOString();
              const messages = messagesOf(Buffer.concat(received).toString('utf8')).map((text): Observed => ({ dir: 's2c', ts: at, session, text }));
              setImmediate(() => recorder.recordAll(messages));
            }
          });
          answer.on('error', () => response.destroy());
        },
      );
      upstream.on('error', (error) => {
        if (response.headersSent) return void response.destroy();
        response.writeHead(502, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type: 'about:blank', title: 'Bad gateway', status: 502, detail: `the MCP server at ${target.origin} cannot be reached: ${error.message}` }));
      });
      // A client that goes away (an SSE stream closed) closes the upstream exchange too.
      response.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
}
