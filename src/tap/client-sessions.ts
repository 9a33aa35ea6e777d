// The proxy's session for exchanges no transport names (2026-07-28 has no session header; a 2025 server may run
// without sessions): one client's run of connections. A connection joins the live session of the same client
// (clientInfo name and version) from the same address; a session lives while one of its connections is open and
// `idleMs` after the last one closed. Only bookkeeping: it never touches a socket beyond watching it close.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

interface LiveSession {
  id: string;
  key: string;
  open: Set<Socket>;
  /** When its last connection closed (while none is open), in ms. */
  closedAt: number;
  /** When it was last looked up, as a count of look-ups (the latest is the highest). */
  usedAt: number;
}

interface SocketSessions {
  /** The sessions this connection carries, by client key. */
  byClient: Map<string, LiveSession>;
  last: LiveSession | undefined;
}

/** The client key of a message, from 2026-07-28's `_meta` clientInfo or from initialize's `params.clientInfo`. */
export function clientKeyOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const params = (message as Record<string, unknown>)['params'];
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as Record<string, unknown>)['_meta'];
  const fromMeta =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>)['io.modelcontextprotocol/clientInfo']
      : undefined;
  const info =
    fromMeta ??
    ((message as Record<string, unknown>)['method'] === 'initialize'
      ? (params as Record<string, unknown>)['clientInfo']
      : undefined);
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as Record<string, unknown>;
  return typeof name === 'string' ? JSON.stringify([name, typeof version === 'string' ? version : null]) : undefined;
}

export class ClientSessions {
  private readonly sockets = new WeakMap<Socket, SocketSessions>();
  /** Sessions by address and client key, the ended ones until they are next looked up or pruned. */
  private readonly sessions = new Map<string, LiveSession>();
  private lookups = 0;

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The session of a message that arrived on `socket` from client `client` (a client key; undefined when the message
   * names none: it joins its connection's latest session, else its address's latest live one).
   */
  sessionFor(socket: Socket, client: string | undefined): string {
    const now = this.now();
    let state = this.sockets.get(socket);
    if (!state) {
      state = { byClient: new Map(), last: undefined };
      this.sockets.set(socket, state);
      socket.once('close', () => this.closed(socket));
    }
    const address = socket.remoteAddress ?? '';
    let session = client === undefined ? (state.last ?? this.latestLive(address, now)) : state.byClient.get(client);
    if (!session) {
      const key = `${address}\u0000${client ?? ''}`;
      const known = this.sessions.get(key);
      session = known && this.isLive(known, now) ? known : this.start(key, now);
    }
    if (!session.open.has(socket) && !socket.destroyed) session.open.add(socket);
    state.byClient.set(client ?? '', session);
    state.last = session;
    session.usedAt = ++this.lookups;
    return session.id;
  }

  private isLive(session: LiveSession, now: number): boolean {
    return session.open.size > 0 || now - session.closedAt < this.idleMs;
  }

  private latestLive(address: string, now: number): LiveSession | undefined {
    let latest: LiveSession | undefined;
    for (const session of this.sessions.values()) {
      if (
        session.key.startsWith(`${address}\u0000`) &&
        this.isLive(session, now) &&
        (!latest || session.usedAt > latest.usedAt)
      )
        latest = session;
    }
    return latest;
  }

  private start(key: string, now: number): LiveSession {
    // The ended sessions are forgotten as new ones start: the map holds the live ones and a few just ended.
    for (const [other, session] of this.sessions) if (!this.isLive(session, now)) this.sessions.delete(other);
    const session: LiveSession = { id: randomUUID(), key, open: new Set(), closedAt: now, usedAt: 0 };
    this.sessions.set(key, session);
    return session;
  }

  private closed(socket: Socket): void {
    const state = this.sockets.get(socket);
    if (!state) return;
    const now = this.now();
    for (const session of new Set(state.byClient.values())) {
      session.open.delete(socket);
      if (session.open.size === 0) session.closedAt = now;
    }
  }
}
