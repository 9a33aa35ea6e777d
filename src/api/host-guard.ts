// Guards the service against being used from web pages the user happens to open: a request must be addressed to
// this service (its `Host` a loopback name, the listen address or an allowed host: DNS rebinding names another), and
// a write that comes from a page (`Origin`) must come from one of those hosts or a CORS origin the operator allowed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceConfig } from '../core/config.js';
import { McpLdError } from '../core/problem.js';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The host name of a `Host` header or an origin's authority, lower-cased, without its port. */
function hostName(authority: string): string {
  const host = authority.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon > 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host;
}

function isLoopback(host: string): boolean {
  return loopbackNames.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function registerHostGuard(app: FastifyInstance, config: ServiceConfig): void {
  const listen = hostName(config.host);
  const anyInterface = listen === '0.0.0.0' || listen === '::' || listen === '[::]';
  const allowed = (host: string) => isLoopback(host) || host === listen || config.allowedHosts.includes(host);
  const corsOrigins = new Set(config.corsOrigins);

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const host = hostName(request.headers.host ?? '');
    // Listening on every interface, the service is addressed by names it cannot know, unless the operator lists them.
    if (!(anyInterface && config.allowedHosts.length === 0) && !allowed(host)) {
      throw McpLdError.of('http.host-not-allowed', {
        detail: `this service does not answer for host "${request.headers.host ?? ''}": it answers for localhost, the loopback addresses and ${config.host}; name other hosts in MCPLD_ALLOWED_HOSTS`,
      });
    }
    const origin = request.headers.origin;
    if (!writeMethods.has(request.method) || origin === undefined || corsOrigins.has('*') || corsOrigins.has(origin))
      return;
    let originHost: string | undefined;
    try {
      originHost = hostName(new URL(origin).host);
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !allowed(originHost)) {
      throw McpLdError.of('http.origin-not-allowed', {
        detail: `a write from the web page at ${origin} is refused: writes come from this machine, or from an origin allowed by MCPLD_CORS_ORIGINS or MCPLD_ALLOWED_HOSTS`,
      });
    }
  });
}
