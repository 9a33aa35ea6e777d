// HTTP authentication for remote stores on top of Node's fetch, which has none: Digest (RFC 7616, MD5 and MD5-sess,
// qop=auth — what Virtuoso's /sparql-auth endpoints require) and Basic (Fuseki, GraphDB), as the server asks.
// Digest answers the server's challenge and then reuses it (counting nonces) until the server sends a fresh one.
import { createHash, randomBytes } from 'node:crypto';

export interface Credentials {
  user: string;
  password: string;
}

interface HttpRequest {
  method: string;
  headers?: Record<string, string>;
  /** A body that can be sent twice (a challenge makes the first attempt fail). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  qop?: string;
  algorithm: string;
  count: number;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** The parameters of the Digest (or Basic) challenge among a WWW-Authenticate header's challenges. */
export function parseChallenge(
  header: string,
): { scheme: 'digest' | 'basic'; params: Record<string, string> } | undefined {
  const digest = /(?:^|,\s*)Digest\s+/i.exec(header);
  if (digest) {
    const params: Record<string, string> = {};
    const pattern = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
    pattern.lastIndex = digest.index + digest[0].length;
    for (let match = pattern.exec(header); match; match = pattern.exec(header)) {
      params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
    }
    return { scheme: 'digest', params };
  }
  if (/(?:^|,\s*)Basic\b/i.test(header)) return { scheme: 'basic', params: {} };
  return undefined;
}

export class HttpClient {
  private digest: DigestChallenge | undefined;
  private basic = false;

  constructor(private readonly credentials?: Credentials) {}

  /** fetch() that answers an authentication challenge once, and authenticates later requests up front. */
  async fetch(url: string, request: HttpRequest): Promise<Response> {
    const sent = this.authorization(url, request.method);
    const first = await this.send(url, request, sent);
    if (first.status !== 401 || !this.credentials) return first;
    const challenge = parseChallenge(first.headers.get('www-authenticate') ?? '');
    if (!challenge) return first;
    if (challenge.scheme === 'basic') {
      if (sent?.startsWith('Basic ')) return first; // these credentials were refused
      this.basic = true;
    } else {
      const { realm, nonce, opaque, qop, algorithm } = challenge.params;
      if (realm === undefined || nonce === undefined) return first;
      const stale = challenge.params['stale']?.toLowerCase() === 'true';
      // Refused: we answered this very nonce already, and the server does not call it stale.
      if (sent?.startsWith('Digest ') && sent.includes(`nonce="${nonce}"`) && !stale) return first;
      if (this.digest?.nonce !== nonce) {
        this.digest = {
          realm,
          nonce,
          algorithm: algorithm ?? 'MD5',
          count: 0,
          ...(opaque !== undefined ? { opaque } : {}),
          ...(qop !== undefined ? { qop } : {}),
        };
      }
    }
    await first.arrayBuffer().catch(() => undefined);
    return this.send(url, request, this.authorization(url, request.method));
  }

  private send(url: string, request: HttpRequest, authorization: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { ...request.headers };
    if (authorization) headers['authorization'] = authorization;
    return fetch(url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: request.body as BodyInit } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  }

  private authorization(url: string, method: string): string | undefined {
    if (!this.credentials) return undefined;
    const { user, password } = this.credentials;
    if (this.basic) return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const challenge = this.digest;
    if (!challenge) return undefined;
    const parsed = new URL(url);
    const uri = `${parsed.pathname}${parsed.search}`;
    const cnonce = randomBytes(8).toString('hex');
    challenge.count += 1;
    const nc = challenge.count.toString(16).padStart(8, '0');
    const sess = /-sess$/i.test(challenge.algorithm);
    let ha1 = md5(`${user}:${challenge.realm}:${password}`);
    if (sess) ha1 = md5(`${ha1}:${challenge.nonce}:${cnonce}`);
    const ha2 = md5(`${method}:${uri}`);
    const qop = challenge.qop
      ?.split(',')
      .map((q) => q.trim())
      .includes('auth')
      ? 'auth'
      : undefined;
    const response = qop
      ? md5(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
      : md5(`${ha1}:${challenge.nonce}:${ha2}`);
    const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;
    const parts = [
      `username=${quote(user)}`,
      `realm=${quote(challenge.realm)}`,
      `nonce=${quote(challenge.nonce)}`,
      `uri=${quote(uri)}`,
      `algorithm=${challenge.algorithm}`,
      `response=${quote(response)}`,
    ];
    if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
    if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
    return `Digest ${parts.join(', ')}`;
  }
}
