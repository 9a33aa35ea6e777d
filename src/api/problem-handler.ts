// Translates every error a route throws into RFC 9457 application/problem+json. Core errors keep their status;
// fastify's own client errors (bad JSON, oversized bodies, schema validation) keep theirs; anything else is
// logged and answered without a stack trace.
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isMcpLdError, type ProblemExtensions } from '../core/problem.js';

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: string;
  pointer?: string;
  line?: number;
  errors?: ProblemExtensions['errors'];
  stored?: ProblemExtensions['stored'];
}

export function problemBody(
  status: number,
  title: string,
  detail: string,
  extra: Partial<ProblemBody> = {},
): ProblemBody {
  return { type: 'about:blank', title, status, detail, ...extra };
}

export function registerProblemHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ProblemBody;
    if (isMcpLdError(error)) {
      body = problemBody(error.status, error.title, error.detail, { code: error.code });
      if (error.pointer !== undefined) body.pointer = error.pointer;
      if (error.line !== undefined) body.line = error.line;
      if (error.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
      if (error.extensions?.errors) body.errors = error.extensions.errors;
      if (error.extensions?.stored) body.stored = error.extensions.stored;
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      body = problemBody(
        error.statusCode,
        titleFor(error.statusCode),
        clientErrorDetail(error, request),
        error.code ? { code: error.code } : {},
      );
    } else if (error.code === 'ECONNRESET' && request.raw.destroyed) {
      // The client went away (or its body timed out) before the body ended: no one is left to answer.
      request.log.info({ err: error }, 'the request ended before its body did');
      return void reply.status(400).send();
    } else {
      request.log.error(error);
      body = problemBody(500, 'Internal error', 'the service failed to handle this request; the error was logged');
    }
    reply.status(body.status).type('application/problem+json').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .type('application/problem+json')
      .send(problemBody(404, 'Not found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}

/**
 * Errors met before a request reaches a route (a URL that does not decode, `/sessions/%ff`): problem+json too, as the
 * Fastify constructor's `frameworkErrors` option.
 */
export function frameworkProblem(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? `the URL ${request.url} does not decode (a % not followed by the UTF-8 of a character)`
      : error.message;
  reply
    .status(status)
    .type('application/problem+json')
    .send(problemBody(status, titleFor(status), detail, error.code ? { code: error.code } : {}));
}

/** An HTTP request Node could not parse (headers too large: 431): answered as problem+json on the socket itself. */
export function clientErrorProblem(error: Error & { code?: string }, socket: Duplex): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const title = status === 431 ? 'Request header fields too large' : 'Bad request';
  const detail =
    status === 431
      ? 'the request headers are larger than this service takes (16 KiB)'
      : `the request is not well-formed HTTP (${error.code ?? error.message})`;
  problemOnSocket(socket, status, title, detail);
}

/**
 * A problem written on the connection itself, which it then closes: for requests that no route will answer (Node could
 * not parse them, or their body stopped arriving).
 */
export function problemOnSocket(socket: Duplex, status: number, title: string, detail: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(problemBody(status, title, detail));
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's own client errors, said in terms of the request. */
function clientErrorDetail(error: FastifyError, request: FastifyRequest): string {
  const contentType = request.headers['content-type'];
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
      return `${request.method} ${request.routeOptions.url ?? request.url} does not take ${contentType ? `Content-Type ${contentType}` : 'a body without a Content-Type'}${consumes ? `; it takes ${consumes.join(', ')}` : ''}`;
    }
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit;
      return `the body is larger than the limit of this service (${limit} bytes; see MCPLD_BODY_LIMIT)`;
    }
    default:
      return error.message;
  }
}

function titleFor(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not found',
    406: 'Not acceptable',
    413: 'Payload too large',
    415: 'Unsupported media type',
    421: 'Misdirected request',
    422: 'Unprocessable content',
    429: 'Too many requests',
    431: 'Request header fields too large',
  };
  return titles[status] ?? 'Client error';
}
