// A recording reverse proxy for MCP over HTTP, every transport generation: requests are forwarded to the target as
// they come (same method, path, headers and body) and answers stream back unchanged — JSON bodies and SSE streams
// alike — while the JSON-RPC messages of both directions are recorded, each under its session: 2024-11-05 HTTP+SSE's
// `sessionId` (the only bytes changed: an `endpoint` event naming the target's origin is pointed at the proxy), the
// Mcp-Session-Id of Streamable HTTP 2025-03-26 to 2025-11-25, else the client's run of connections
// (client-sessions.ts: 2026-07-28). Nothing the proxy records delays the relay.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Recorder, Observed } from './recorder.js';
import type { Direction } from '../schema/index.js';
import type { HttpFacts } from '../lift/records.js';
import { parseJsonText } from '../lift/input.js';
import { decodeUtf8 } from '../core/utf8.js';
import { ClientSessions, clientKeyOf } from './client-sessions.js';
import { SseReader, type SseEvent } from './sse-reader.js';
import { hasIriScheme } from '../core/iri.js';

/** Headers that belong to one hop, not to the exchange (RFC 9110 §7.6.1). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!hopByHop.has(name) && value !== undefined) out[name] = value;
  return out;
}

function header(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isBlank(bytes: Buffer): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d);
}

interface BodyMessages {
  /** The wire bytes of each message: one, or each member of a batch. */
  bytes: Buffer[];
  /** The parsed messages (none when the body is kept whole as it is). */
  parsed: unknown[];
}

/**
 * The JSON-RPC messages of a body: one message, or each member of a batch. Anything else, and a batch mcp-ld cannot
 * keep exactly (not UTF-8, a key given twice, a number past a double), is recorded as it is, whole.
 */
function messagesOf(body: Buffer): BodyMessages {
  if (isBlank(body)) return { bytes: [], parsed: [] };
  try {
    const parsed = parseJsonText(decodeUtf8(body));
    return Array.isArray(parsed)
      ? { bytes: parsed.map((m) => Buffer.from(JSON.stringify(m))), parsed }
      : { bytes: [body], parsed: [parsed] };
  } catch {
    return { bytes: [body], parsed: [] };
  }
}

/** The Mcp-Method and Mcp-Name headers of a request (2026-07-28), as sent. */
function httpFacts(headers: http.IncomingHttpHeaders): HttpFacts | undefined {
  const mcpMethod = header(headers, 'mcp-method');
  const mcpName = header(headers, 'mcp-name');
  if (mcpMethod === undefined && mcpName === undefined) return undefined;
  return { ...(mcpMethod !== undefined ? { mcpMethod } : {}), ...(mcpName !== undefined ? { mcpName } : {}) };
}

/**
 * The legacy (2024-11-05) session id an endpoint URL carries: its `sessionId` (TypeScript SDK) or `session_id` (Python
 * SDK).
 */
function legacySessionId(url: URL): string | undefined {
  return url.searchParams.get('sessionId') ?? url.searchParams.get('session_id') ?? undefined;
}

/** The messages of one exchange, held until its session is known, then recorded in the order they passed. */
class Exchange {
  private session: string | undefined;
  private held: Omit<Observed, 'session'>[] = [];

  constructor(private readonly recorder: Recorder) {}

  get decided(): boolean {
    return this.session !== undefined;
  }

  observe(dir: Direction, ts: string, bytes: Buffer[], http?: HttpFacts): void {
    if (bytes.length === 0) return;
    const observed = bytes.map((b) => ({ dir, ts, bytes: b, ...(http ? { http } : {}) }));
    if (this.session === undefined) this.held.push(...observed);
    else this.record(observed.map((o) => ({ ...o, session: this.session! })));
  }

  decide(session: string): void {
    if (this.session !== undefined) return;
    this.session = session;
    this.record(this.held.splice(0).map((o) => ({ ...o, session })));
  }

  private record(observed: Observed[]): void {
    if (observed.length > 0) setImmediate(() => this.recorder.recordAll(observed));
  }
}

/** Largest start of an SSE stream held back to find its first event (an endpoint to point at the proxy). */
const maxHeldBytes = 64 * 1024;

export interface ProxyOptions {
  target: URL;
  recorder: Recorder;
  /** How long a client's session outlives its last connection, in ms (sessions no transport names). */
  sessionIdleMs: number;
}

export function createRecordingProxy({ target, recorder, sessionIdleMs }: ProxyOptions): http.Server {
  const clients = new ClientSessions(sessionIdleMs);
  /** 2024-11-05 sessions by the endpoint their SSE stream announced (path and query, as the client POSTs to it). */
  const endpoints = new Map<string, string>();

  /** The session an exchange's transport names before any body is read: the legacy endpoint, or Mcp-Session-Id. */
  function transportSession(request: IncomingMessage): string | undefined {
    const url = new URL(request.url ?? '/', 'http://proxy');
    const legacy = endpoints.get(url.pathname + url.search) ?? legacySessionId(url);
    return legacy ?? header(request.headers, 'mcp-session-id');
  }

  /**
   * Relays an SSE answer, reading its events to record their messages. On a GET, the bytes of the stream's first
   * event are held until it is complete (a client acts on an event only then): an `endpoint` event (2024-11-05) names
   * the session, and is pointed at the proxy when it names the target's origin.
   */
  function relayEvents(
    request: IncomingMessage,
    response: ServerResponse,
    answer: IncomingMessage,
    exchange: Exchange,
  ): void {
    const reader = new SseReader();
    let watching = request.method === 'GET' && answer.headers['content-length'] === undefined;
    let held: Buffer = Buffer.alloc(0);
    let heldFrom = 0; // stream offset of held[0]
    let endpoint: string | undefined;
    const onEvent = (event: SseEvent) => {
      if (event.type === 'endpoint' && event.data !== undefined && endpoint === undefined && !exchange.decided) {
        endpoint = announce(request, event.data.toString('utf8'));
        exchange.decide(
          endpoint !== undefined ? endpoints.get(endpoint)! : clients.sessionFor(request.socket, undefined),
        );
        return;
      }
      if (event.type !== 'message' || event.data === undefined) return;
      if (!exchange.decided) exchange.decide(clients.sessionFor(request.socket, undefined));
      exchange.observe('s2c', new Date().toISOString(), [event.data]);
    };
    answer.on('data', (chunk: Buffer) => {
      if (!watching) {
        response.write(chunk);
        return reader.push(chunk, onEvent);
      }
      held = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
      let first: SseEvent | undefined;
      reader.push(chunk, (event) => {
        if (first === undefined) first = event;
        onEvent(event);
      });
      if (first !== undefined) {
        watching = false;
        response.write(rewriteEndpoint(request, held, heldFrom, first));
        held = Buffer.alloc(0);
      } else if (reader.eventStart === undefined || held.length > maxHeldBytes) {
        // No event under way (comments, keep-alives pass at once), or too long a one to wait for: all of it passes.
        if (held.length > maxHeldBytes) watching = false;
        response.write(held);
        heldFrom += held.length;
        held = Buffer.alloc(0);
      } else if (reader.eventStart > heldFrom) {
        // What came before the event under way passes; the event waits for its end.
        const pass = reader.eventStart - heldFrom;
        response.write(held.subarray(0, pass));
        held = Buffer.from(held.subarray(pass));
        heldFrom += pass;
      }
    });
    answer.on('end', () => {
      if (held.length > 0) response.write(held);
      response.end();
    });
    // The session of a 2024-11-05 stream ends with it.
    response.on('close', () => {
      if (endpoint !== undefined) endpoints.delete(endpoint);
    });
  }

  /** Registers the session of an endpoint event's URL; returns its key (path and query), or undefined if no URL. */
  function announce(request: IncomingMessage, data: string): string | undefined {
    let url: URL;
    try {
      url = new URL(data.trim(), `http://${request.headers.host ?? 'proxy'}${request.url ?? '/'}`);
    } catch {
      return undefined;
    }
    const key = url.pathname + url.search;
    endpoints.set(key, legacySessionId(url) ?? randomUUID());
    return key;
  }

  /**
   * The held start of a stream, its first event's endpoint URL pointed at the proxy if it names the target's origin.
   */
  function rewriteEndpoint(request: IncomingMessage, held: Buffer, heldFrom: number, first: SseEvent): Buffer {
    if (first.type !== 'endpoint' || first.dataRange === undefined || request.headers.host === undefined) return held;
    const [start, end] = [first.dataRange[0] - heldFrom, first.dataRange[1] - heldFrom];
    const text = held.subarray(start, end).toString('utf8');
    if (!hasIriScheme(text)) return held; // a relative URL resolves against the proxy already
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return held;
    }
    if (url.origin !== target.origin) return held;
    const pointed = `http://${request.headers.host}${url.pathname}${url.search}${url.hash}`;
    return Buffer.concat([held.subarray(0, start), Buffer.from(pointed), held.subarray(end)]);
  }

  return http.createServer((request: IncomingMessage, response: ServerResponse) => {
    const ts = new Date().toISOString();
    const exchange = new Exchange(recorder);
    const named = transportSession(request);
    if (named !== undefined) exchange.decide(named);
    let body: BodyMessages | undefined;
    let answerSession: string | null | undefined; // null: answered without one
    /** The session of an exchange no transport named, once its body is read (and its answer is in, for initialize). */
    const settle = () => {
      if (exchange.decided || body === undefined) return;
      const initialize = body.parsed.some(
        (m) => typeof m === 'object' && m !== null && (m as Record<string, unknown>)['method'] === 'initialize',
      );
      if (initialize && answerSession === undefined) return; // the server's answer may name the session
      if (answerSession) return exchange.decide(answerSession);
      if (body.bytes.length === 0 && request.method === 'GET') return; // a stream: its first event decides
      const client = body.parsed.map(clientKeyOf).find((key) => key !== undefined);
      exchange.decide(clients.sessionFor(request.socket, client));
    };

    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method ?? 'GET', headers: { ...forwardedHeaders(request.headers), host: target.host } },
      (answer) => {
        answerSession = header(answer.headers, 'mcp-session-id') ?? null;
        settle();
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
        answer.on('error', () => response.destroy());
        const type = String(answer.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) return relayEvents(request, response, answer, exchange);
        const received: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          response.write(chunk);
          received.push(chunk);
        });
        answer.on('end', () => {
          response.end();
          if (!type.includes('json')) return;
          const at = new Date().toISOString();
          setImmediate(() => {
            exchange.observe('s2c', at, messagesOf(Buffer.concat(received)).bytes);
            if (!exchange.decided) exchange.decide(clients.sessionFor(request.socket, undefined));
          });
        });
      },
    );
    upstream.on('error', (error) => {
      answerSession ??= null;
      settle();
      if (response.headersSent) return void response.destroy();
      response.writeHead(502, { 'content-type': 'application/problem+json' });
      response.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Bad gateway',
          status: 502,
          detail: `the MCP server at ${target.origin} cannot be reached: ${error.message}`,
        }),
      );
    });
    // A client that goes away (an SSE stream closed) closes the upstream exchange too.
    response.on('close', () => upstream.destroy());

    // The body goes upstream as it comes; its messages are read once it is whole, off the relay's path.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!upstream.write(chunk)) {
        request.pause();
        upstream.once('drain', () => request.resume());
      }
    });
    request.on('end', () => {
      upstream.end();
      setImmediate(() => {
        body = messagesOf(Buffer.concat(chunks));
        exchange.observe('c2s', ts, body.bytes, httpFacts(request.headers));
        settle();
      });
    });
  });
}
