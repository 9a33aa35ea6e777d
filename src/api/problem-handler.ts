// Translates every error a route throws into RFC 9457 application/problem+json. Core errors keep their status;
// fastify's own client errors (bad JSON, oversized bodies, schema validation) keep theirs; anything else is
// logged and answered without a stack trace.
import type { FastifyInstance, FastifyError } from 'fastify';
import { isMcpLdError } from '../core/problem.js';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: string;
  pointer?: string;
  line?: number;
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
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      body = problemBody(error.statusCode, titleFor(error.statusCode), error.message, error.code ? { code: error.code } : {});
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
