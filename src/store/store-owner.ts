// The owner of a data directory: the one process that opens its embedded store, and serves it to every other mcp-ld
// process using the directory over a Unix socket, named in the directory's lock (owner-client.ts is the other end).
// It takes the lock first, listens at once (requests wait while the journal replays), answers each request when the
// store has (a write: once it is journaled and fsynced), and, as a background owner, closes when it has been idle.
import { createHash } from 'node:crypto';
import { appendFile, chmod, mkdir, readFile, unlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { tmpdir } from 'node:os';
import type { DataLock } from './data-lock.js';
import { takeLock } from './file-journal.js';
import { diskFull, isDiskFull } from './store-errors.js';
import type { StoreChanges } from './store-changes.js';
import { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
import type {
  GraphSummary,
  IngestOptions,
  IngestReceipt,
  PreparedIngest,
  QueryOptions,
  QueryResult,
  QueryText,
  QuadStore,
  ResultStream,
  UpdateOptions,
} from './quad-store.js';
import {
  encodeOwnerMessage,
  OwnerMessageReader,
  problemOf,
  type OwnerRequest,
  type OwnerStatus,
} from './owner-protocol.js';
import type { Quad } from '@rdfjs/types';

export const ownerSocketName = 'owner.sock';
/** Where a background owner writes what went wrong (it has no terminal), one JSON line each. */
export const ownerLogName = 'owner.log';

/**
 * Unix socket paths are limited to about 108 bytes: a deep data directory gets its socket in the temporary directory.
 */
function ownerSocketFor(dir: string): string {
  const beside = path.join(dir, ownerSocketName);
  if (Buffer.byteLength(beside) <= 100) return beside;
  return path.join(tmpdir(), `mcp-ld-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}.sock`);
}

interface StoreOwnerOptions extends Omit<EmbeddedStoreOptions, 'dataDir' | 'lock' | 'readOnly'> {
  dataDir: string;
  /** What the owner is, for `status`: `serve`, `ingest`, `own`. */
  command: string;
  /** Closes itself (calling onIdle) after this long with no client connected and no request running. */
  idleMs?: number;
  onIdle?: () => void;
  /** A file that lists every data directory an owner has held (for `mcp-ld status`); the directory is added to it. */
  directoryList?: string;
}

export class StoreOwner {
  private readonly connections = new Set<net.Socket>();
  private running = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;
  private readonly since = new Date().toISOString();

  private constructor(
    readonly dataDir: string,
    readonly socket: string,
    private readonly server: net.Server,
    private readonly lock: DataLock,
    private readonly opened: Promise<EmbeddedStore>,
    private readonly options: StoreOwnerOptions,
  ) {
    server.on('connection', (socket) => this.serve(socket));
    this.resetIdle();
  }

  /**
   * Takes the directory (throws store.locked, 423, when another process holds it), listens on its socket, and opens
   * the store; resolves once it is open (the clients that connected meanwhile are answered from then on).
   */
  static async start(options: StoreOwnerOptions): Promise<StoreOwner> {
    const dir = path.resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    const socket = ownerSocketFor(dir);
    const lock = (await takeLock(dir, false, undefined, { socket }))!;
    const server = net.createServer({ allowHalfOpen: false });
    // Clients may connect as soon as the server listens, before the owner below exists to serve them: they are held
    // here and handed to it (left without a handler, a connection would get no hello and no close, and its client
    // would wait for good).
    const early: net.Socket[] = [];
    const hold = (connection: net.Socket) => void early.push(connection);
    server.on('connection', hold);
    try {
      // A socket file left by an owner that died: this process holds the lock now, so the path is its to take.
      await unlink(socket).catch(() => undefined);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socket, () => {
          server.off('error', reject);
          resolve();
        });
      });
      await chmod(socket, 0o600); // only this user's processes may write
    } catch (error) {
      for (const connection of early) connection.destroy();
      server.close();
      await lock.release();
      throw isDiskFull(error)
        ? diskFull(dir, error.code!, `it cannot be opened for writing (there is no room for its socket ${socket})`)
        : error;
    }
    const opened = EmbeddedStore.open({ ...options, dataDir: dir, lock });
    const owner = new StoreOwner(dir, socket, server, lock, opened, options);
    server.off('connection', hold);
    for (const connection of early) if (!connection.destroyed) owner.serve(connection);
    try {
      await opened;
    } catch (error) {
      for (const connection of owner.connections) connection.destroy(); // else closing the server waits for them
      await owner.stopServing();
      throw error;
    }
    if (options.directoryList) await listDirectory(options.directoryList, dir).catch(() => undefined);
    return owner;
  }

  /** The owner's own store, for the process that runs it: closing it stops serving the others, then closes. */
  async localStore(): Promise<QuadStore> {
    return new OwnedStore(await this.opened, () => this.close());
  }

  private serve(socket: net.Socket): void {
    if (this.closing) return void socket.destroy();
    this.connections.add(socket);
    this.resetIdle();
    const reader = new OwnerMessageReader();
    socket.on('data', (chunk: Buffer) => {
      let messages;
      try {
        messages = reader.push(chunk);
      } catch {
        return void socket.destroy(); // not a client of ours
      }
      for (const { header, payload } of messages) void this.answer(socket, header as unknown as OwnerRequest, payload);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.connections.delete(socket);
      this.resetIdle();
    });
    // The hello only once the store is open: a client is never told of an owner that cannot serve it (a store that
    // fails to open closes the connection instead, and the client reads why in the log).
    this.opened.then(
      () => void (socket.destroyed || socket.write(Buffer.concat(encodeOwnerMessage({ hello: this.lock.ownToken })))),
      () => socket.destroy(),
    );
  }

  private async answer(socket: net.Socket, request: OwnerRequest, payload: Buffer): Promise<void> {
    this.running += 1;
    this.resetIdle();
    let reply: Buffer[];
    try {
      const store = await this.opened;
      const { value, data } = await this.run(store, request, payload);
      reply = encodeOwnerMessage({ id: request.id, ok: true, ...(value !== undefined ? { value } : {}) }, data);
    } catch (error) {
      reply = encodeOwnerMessage({ id: request.id, ok: false, problem: problemOf(error) });
    } finally {
      this.running -= 1;
      this.resetIdle();
    }
    if (!socket.destroyed) socket.write(Buffer.concat(reply));
  }

  private async run(
    store: EmbeddedStore,
    request: OwnerRequest,
    payload: Buffer,
  ): Promise<{ value?: unknown; data?: Uint8Array }> {
    switch (request.op) {
      case 'ingest':
        return { value: await store.ingest(payload) };
      case 'queryText': {
        const answer = await store.queryText(request.sparql, request.options);
        return { value: answer.form, data: answer.data };
      }
      case 'update':
        return { value: await store.update(request.sparql, request.options) };
      case 'graphs':
        return { value: await store.graphs() };
      case 'size':
        return { value: await store.size() };
      case 'graphText':
        return { data: await store.graphText(request.graph) };
      case 'deleteGraph':
        return { value: await store.deleteGraph(request.graph) };
      case 'status':
        return { value: await this.status(store) };
      default:
        throw new Error(`unknown request ${JSON.stringify((request as { op?: unknown }).op)}`);
    }
  }

  private async status(store: EmbeddedStore): Promise<OwnerStatus> {
    const graphs = await store.graphs();
    return {
      pid: process.pid,
      command: this.options.command,
      since: this.since,
      dataDir: this.dataDir,
      clients: this.connections.size,
      sessions: graphs.length,
      quads: graphs.reduce((sum, g) => sum + g.quads, 0),
    };
  }

  private resetIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.options.idleMs === undefined || this.closing || this.connections.size > 0 || this.running > 0) return;
    this.idleTimer = setTimeout(() => this.options.onIdle?.(), this.options.idleMs);
  }

  /** Stops taking connections and removes the socket file: clients that connect now find no owner. */
  private async stopServing(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Stops serving: no new connection, the requests running are answered, the clients are disconnected (they take
   * the directory over), then the store closes and the lock is released.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      const stopped = this.stopServing();
      while (this.running > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const socket of this.connections) socket.end();
      await stopped.catch(() => undefined);
      for (const socket of this.connections) socket.destroy();
      try {
        await (await this.opened).close();
      } catch {
        await this.lock.release(); // the store never opened: its lock is still ours
      }
    })();
    return this.closing;
  }
}

/** Adds `dir` to the list of data directories (one a line), unless it is there already. */
async function listDirectory(file: string, dir: string): Promise<void> {
  const known = await readFile(file, 'utf8').catch(() => '');
  if (known.split('\n').includes(dir)) return;
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${dir}\n`);
}

/** The owner process's own view of its store: every call goes straight to it; closing it closes the owner. */
class OwnedStore implements QuadStore {
  readonly kind = 'embedded' as const;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly closeOwner: () => Promise<void>,
  ) {}

  get changes(): StoreChanges {
    return this.store.changes;
  }
  ingest(nquads: string | Uint8Array, options?: IngestOptions): Promise<IngestReceipt> {
    return this.store.ingest(nquads, options);
  }
  prepareIngest(nquads: string | Uint8Array, options?: IngestOptions): Promise<PreparedIngest> {
    return this.store.prepareIngest(nquads, options);
  }
  query(sparql: string, options?: QueryOptions): Promise<QueryResult> {
    return this.store.query(sparql, options);
  }
  queryText(sparql: string, options?: QueryOptions): Promise<QueryText> {
    return this.store.queryText(sparql, options);
  }
  update(sparql: string, options?: UpdateOptions): Promise<void> {
    return this.store.update(sparql, options);
  }
  // Large answers stream to this process's own clients (serve --data) as they do from a store without a directory.
  queryStream(sparql: string, options?: QueryOptions): Promise<ResultStream> {
    return this.store.queryStream(sparql, options);
  }
  graphStream(graph: string): Promise<ResultStream | undefined> {
    return this.store.graphStream(graph);
  }
  graphs(): Promise<GraphSummary[]> {
    return this.store.graphs();
  }
  graphQuads(graph: string): Promise<Quad[]> {
    return this.store.graphQuads(graph);
  }
  graphText(graph: string): Promise<Uint8Array> {
    return this.store.graphText(graph);
  }
  deleteGraph(graph: string): Promise<boolean> {
    return this.store.deleteGraph(graph);
  }
  size(): Promise<number> {
    return this.store.size();
  }
  close(): Promise<void> {
    return this.closeOwner();
  }
}

/** Writes what a background owner has to say (a warning, or the failure it exits with) where the process that
 *  started it finds it. */
export async function logOwner(dir: string, said: { warning: string } | { failure: unknown }): Promise<void> {
  const entry = 'warning' in said ? { warning: said.warning } : { problem: problemOf(said.failure) };
  await appendFile(
    path.join(path.resolve(dir), ownerLogName),
    JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...entry }) + '\n',
  ).catch(() => undefined);
}
