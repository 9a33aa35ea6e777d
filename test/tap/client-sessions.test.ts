import assert from 'node:assert/strict';
import net, { type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ClientSessions, clientKeyOf } from '../../src/tap/client-sessions.js';

/** Real loopback connections: the server's side of each, as the proxy sees them. */
async function connections(
  count: number,
): Promise<{ sockets: Socket[]; close(socket: Socket): Promise<void>; end(): Promise<void> }> {
  const accepted: Socket[] = [];
  const server = net.createServer((socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const clients: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    clients.push(client);
  }
  while (accepted.length < count) await new Promise((resolve) => setImmediate(resolve));
  return {
    sockets: accepted,
    close: (socket) =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      }),
    end: async () => {
      for (const client of clients) client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const a = clientKeyOf({
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'a', version: '1' } } },
});
const b = clientKeyOf({
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'b', version: '1' } } },
});

describe('tap: the session of a client no transport names (2026-07-28): its run of connections', () => {
  it("names a client by _meta clientInfo (2026-07-28) or by initialize's clientInfo, name and version", () => {
    assert.equal(a, '["a","1"]');
    assert.equal(clientKeyOf({ method: 'initialize', params: { clientInfo: { name: 'a', version: '1' } } }), a);
    assert.equal(
      clientKeyOf({ method: 'ping', params: { clientInfo: { name: 'a', version: '1' } } }),
      undefined,
      "clientInfo is initialize's only",
    );
    assert.equal(clientKeyOf({ jsonrpc: '2.0', id: 1, result: {} }), undefined);
    assert.equal(clientKeyOf('not an object'), undefined);
  });

  it('joins the connections of one client that overlap in time, and keeps two clients apart on the same connections', async () => {
    const net = await connections(3);
    try {
      const sessions = new ClientSessions(0);
      const [one, two, three] = net.sockets as [Socket, Socket, Socket];
      const first = sessions.sessionFor(one, a);
      assert.equal(sessions.sessionFor(two, a), first, 'a second connection of the same client');
      assert.notEqual(sessions.sessionFor(two, b), first, 'another client on the same connection');
      assert.equal(
        sessions.sessionFor(two, undefined),
        sessions.sessionFor(two, b),
        "a message that names no client: its connection's latest session",
      );
      assert.equal(
        sessions.sessionFor(three, undefined),
        sessions.sessionFor(two, b),
        "on a new connection: its address's latest live session",
      );
      await net.close(one);
      assert.equal(sessions.sessionFor(three, a), first, 'alive while one of its connections is open');
    } finally {
      await net.end();
    }
  });

  it('ends a session once its client has had no open connection for the idle time: a later connection starts a new one', async () => {
    let now = 1_000;
    const sessions = new ClientSessions(60_000, () => now);
    const net = await connections(3);
    try {
      const [one, two, three] = net.sockets as [Socket, Socket, Socket];
      const first = sessions.sessionFor(one, a);
      await net.close(one);
      now += 59_999;
      assert.equal(sessions.sessionFor(two, a), first, 'back within the idle time');
      await net.close(two);
      now += 60_000;
      const next = sessions.sessionFor(three, a);
      assert.notEqual(next, first, 'back after it');
      assert.match(next, /^[0-9a-f-]{36}$/);
    } finally {
      await net.end();
    }
  });
});
