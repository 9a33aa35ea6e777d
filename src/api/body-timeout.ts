// A request body that stops arriving is timed out: a client that sent its headers and part of a body, then nothing for
// `timeoutMs` (MCPLD_BODY_TIMEOUT_MS), gets 408 problem+json and the connection closed. Only idleness counts, and only
// while the service waits for bytes: a long NDJSON stream that keeps sending is never cut, nor is a client held back
// because the service has not read what it already sent (the request's buffer is not empty then).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { problemOnSocket } from './problem-handler.js';

export function registerBodyTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', async (request, reply) => {
    // Only a request from the network can stall (not one injected in-process, whose socket is a stand-in).
    if (!request.raw.complete && request.raw.socket instanceof Socket) watchBody(request.raw, reply.raw, timeoutMs);
  });
}

function watchBody(request: IncomingMessage, response: ServerResponse, timeoutMs: number): void {
  const socket = request.socket;
  let bytesRead = socket.bytesRead;
  let lastProgress = performance.now();
  // Looked at a few times per time limit: a stall is noticed between 1 and 1.25 times the limit after the last byte.
  const timer = setInterval(check, Math.max(5, Math.min(1000, Math.floor(timeoutMs / 4))));
  timer.unref();
  const stop = () => clearInterval(timer);
  request.once('end', stop);
  request.once('close', stop);

  function check(): void {
    if (request.complete || socket.destroyed) return stop();
    const now = performance.now();
    if (socket.bytesRead !== bytesRead || request.readableLength > 0) {
      // Bytes arrived, or the service has yet to read what came: the client is not the one waiting.
      bytesRead = socket.bytesRead;
      lastProgress = now;
      return;
    }
    if (now - lastProgress < timeoutMs) return;
    stop();
    // Answered already (a refusal that did not need the body): the connection only waits for the rest of it.
    if (response.headersSent) return void socket.destroy();
    const seconds = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
    problemOnSocket(
      socket,
      408,
      'Request timeout',
      `the request body stopped arriving: no byte of it came for ${seconds} (MCPLD_BODY_TIMEOUT_MS), so the connection was closed; ` +
        'a JSON body was not stored, and of an NDJSON stream (not ?strict) only the whole lines that came before may have been',
    );
  }
}
