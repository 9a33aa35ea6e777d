// GET /events: server-sent events that say the store changed, so that open pages (the console) update without a
// reload. One `change` event per burst of writes (at most one every `coalesceMs`), naming the sessions the writes
// touched: `{"sessions":["…"]}` (an empty list when the store cannot tell, a SPARQL Update). It carries no data of the
// store, and reads nothing but the sessions' names. Where writes happen in another process (a client of a data
// directory's owner, a remote store), the store's size is looked at every `pollMs` while someone listens.
import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import { decodeSegment, IriMinter } from '../../rdf/vocabulary.js';
import { WatchedSize, type StoreChange } from '../../store/store-changes.js';
import type { StoreRouteOptions } from './store-route-options.js';
import { answer, problems } from '../openapi.js';

/** Writes within this time are one event: an NDJSON ingest of a million lines writes a thousand batches. */
const coalesceMs = 250;
/** A comment line this often keeps proxies from closing a quiet stream, and lets Chromium see soon that a stream it
 * dropped (a page reloaded) is gone: until it writes to one, it keeps its connection (six per host). */
const keepAliveMs = 5_000;
/** How often the size of a store whose writes happen elsewhere is looked at, while someone listens. */
const pollMs = 2_000;

export const eventRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store }) => {
  const changes = store.changes ?? new WatchedSize(() => store.size(), pollMs);
  const sessionPrefix = new IriMinter().session('');
  const streams = new Set<ServerResponse>();
  // Open streams never end on their own: close them, or closing the server would wait for them forever.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  const schema = {
    summary: 'Server-sent events: a `change` event, naming the sessions touched, after writes to the store',
    tags: ['console'],
    response: {
      200: answer('a stream that ends only when the client or the service closes it', {
        'text/event-stream': {
          type: 'string',
          description: 'events such as `event: change` and `data: {"sessions":["…"]}`',
        },
      }),
      ...problems(),
    },
  };
  app.get('/events', { schema }, (request, reply) => {
    const stream = reply.raw;
    reply.hijack();
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Reconnect after a second when the stream drops (the service restarting).
    stream.write('retry: 1000\n\n');
    streams.add(stream);
    let pending: Set<string> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const send = () => {
      timer = undefined;
      const sessions = [...(pending ?? [])];
      pending = undefined;
      stream.write(`event: change\ndata: ${JSON.stringify({ sessions })}\n\n`);
    };
    const stop = changes.listen((change: StoreChange) => {
      pending ??= new Set();
      for (const graph of change.graphs)
        if (graph.startsWith(sessionPrefix)) pending.add(decodeSegment(graph.slice(sessionPrefix.length)));
      timer ??= setTimeout(send, coalesceMs);
    });
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
    request.raw.on('close', () => {
      stop();
      clearInterval(keepAlive);
      if (timer) clearTimeout(timer);
      streams.delete(stream);
    });
  });
};
