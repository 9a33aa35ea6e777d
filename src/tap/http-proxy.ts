// A recording reverse proxy for MCP's Streamable HTTP transport. Requests are forwarded to the target as they come
// (same method, path, headers and body); responses stream back unchanged — JSON bodies and SSE streams alike —
// while the proxy records the JSON-RPC messages on both sides. The session is the Mcp-Session-Id header (the
// server's answer to initialize names it; later requests carry it). Nothing the proxy records delays the relay.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Recorder, Observed } from './recorder.js';
import { parseJsonText } from '../lift/input.js';
import { decodeUtf8 } from '../core/utf8.js';

/** Headers that belong to one hop, not to the exchange (RFC 9110 §7.6.1). */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name) && value !== undefined) out[name] = value;
  return out;
}

function isBlank(bytes: Buffer): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d);
}

/**
 * The JSON-RPC messages of a body: one message, or each member of a batch. Anything else, and a batch mcp-ld cannot
 * keep exactly (not UTF-8, a key given twice, a number past a double), is recorded as it is, whole.
 */
function messagesOf(body: Buffer): Buffer[] {
  if (isBlank(body)) return [];
  try {
    const parsed = parseJsonText(decodeUtf8(body));
    return Array.isArray(parsed) ? parsed.map((m) => Buffer.from(JSON.stringify(m))) : [body];
  } catch {
    return [body];
  }
}

const cr = 0x0d;
const lf = 0x0a;
const dataField = Buffer.from('data:');

/**
 * Parses the `data:` fields of a text/event-stream as it arrives, as bytes (a character may be split across chunks);
 * each complete event's data is one message.
 */
class SseReader {
  private buffer: Buffer = Buffer.alloc(0);
  private data: Buffer[] = [];

  push(chunk: Buffer, onEvent: (data: Buffer) => void): void {
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, chunk]) : chunk;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const byte = this.buffer[i];
      if (byte !== cr && byte !== lf) continue;
      // A CR at the end of what has come may be the first half of a CRLF: wait for the next chunk.
      if (byte === cr && i + 1 === this.buffer.length) break;
      this.line(this.buffer.subarray(start, i), onEvent);
      if (byte === cr && this.buffer[i + 1] === lf) i++;
      start = i + 1;
    }
    this.buffer = Buffer.from(this.buffer.subarray(start));
  }

  private line(line: Buffer, onEvent: (data: Buffer) => void): void {
    if (line.length === 0) {
      if (this.data.length > 0) onEvent(Buffer.concat(this.data.flatMap((d, i) => (i === 0 ? [d] : [Buffer.of(lf), d]))));
      this.data = [];
    } else if (line.subarray(0, 5).equals(dataField)) this.data.push(line.subarray(line[5] === 0x20 ? 6 : 5));
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
          const sent: Observed[] = messagesOf(body).map((bytes) => ({ dir: 'c2s', ts, session, bytes }));
          if (sent.length > 0) setImmediate(() => recorder.recordAll(sent));
          response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
          const type = String(answer.headers['content-type'] ?? '');
          const sse = type.startsWith('text/event-stream') ? new SseReader() : undefined;
          const received: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => {
            response.write(chunk);
            if (sse) {
              const at = new Date().toISOString();
              sse.push(chunk, (data) => setImmediate(() => recorder.recordAll([{ dir: 's2c', ts: at, session, bytes: data }])));
            } else received.push(chunk);
          });
          answer.on('end', () => {
            response.end();
            if (!sse && type.includes('json')) {
              const at = new Date().toISOString();
              const messages = messagesOf(Buffer.concat(received)).map((bytes): Observed => ({ dir: 's2c', ts: at, session, bytes }));
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
