// Translates every error a route throws into RFC 9457 application/problem+json. Core errors keep their status;
// fastify's own client errors (bad JSON, oversized bodies, schema validation) keep theirs; anything else is
// logged and answered without a stack trace.
import type { FastifyInstance, FastifyError, FastifyRequest } from 'fastify';
import { isMcpLdError } from '../core/problem.js';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: string;
  pointer?: string;
  line?: number;
  /** Every failed input line, when there are several. */
  errors?: unknown[];
  /** What was stored before an ingest failed (nothing after it). */
  stored?: unknown;
}

export function problemBody(status: number, title: string, detail: string, extra: Partial<ProblemBody> = {}): ProblemBody {
  return { type: 'about:blank', title, status, detail, ...extra };
}

export function registerProblemHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ProblemBody;
    if (isMcpLdError(error)) {
      body = problemBody(error.status, error.title, error.detail, { code: error.code });
      if (error.pointer !== undefined) body.pointer = error.pointer;
      if (error.line !== undefined) body.line = error.line;
      const { errors, stored } = error as { errors?: unknown[]; stored?: unknown };
      if (Array.isArray(errors)) body.errors = errors;
      if (stored !== undefined) body.stored = stored;
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      body = problemBody(error.statusCode, titleFor(error.statusCode), clientErrorDetail(error, request), error.code ? { code: error.code } : {});
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

/** Fastify's own client errors, said in terms of the request. */
function clientErrorDetail(error: FastifyError, request: FastifyRequest): string {
  const contentType = request.headers['content-type'];
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
      return `${request.method} ${request.routeOptions.url ?? request.url} does not take ${contentType ? `Content-Type ${contentType}` : 'a body without a Content-Type'}${consumes ? `; it takes ${consumes.join(', ')}` : ''}`;
    }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `the body is larger than the limit of this service (${error.message.replace(/^.*?(\d+).*$/, '$1') || 'MCPLD_BODY_LIMIT'} bytes; see MCPLD_BODY_LIMIT)`;
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
    422: 'Unprocessable content',
  };
  return titles[status] ?? 'Client error';
}
