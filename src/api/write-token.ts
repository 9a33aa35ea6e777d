// The write token: requests that change the store present `Authorization: Bearer <MCPLD_WRITE_TOKEN>`. Without a
// configured token, ingestion stays open (a local service) while deletes and updates are refused outright.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { McpLdError } from '../core/problem.js';

function presented(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim();
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks the token for a write; `destructive` writes (delete, update) need a configured token at all. */
export function requireWriteToken(request: FastifyRequest, token: string | undefined, destructive: boolean): void {
  if (token === undefined) {
    if (!destructive) return;
    throw McpLdError.of('auth.writes-disabled', {
      detail:
        'deletes and updates are disabled: start the service with MCPLD_WRITE_TOKEN set, and present it as a bearer token',
    });
  }
  const given = presented(request);
  if (given === undefined)
    throw McpLdError.of('auth.token-missing', {
      detail: 'this request changes the store: send Authorization: Bearer <token>',
    });
  if (!same(given, token))
    throw McpLdError.of('auth.token-wrong', { detail: 'the bearer token is not the write token of this service' });
}
