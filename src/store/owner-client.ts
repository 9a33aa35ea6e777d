// The embedded store of a data directory that another process owns (store-owner.ts), reached over the Unix socket its
// lock names. When the owner goes away (it exits, crashes or is killed), the client takes the directory over: it
// starts a background owner (`mcp-ld own`) when nobody holds the directory, reconnects, and sends again whatever had
// no answer yet (batches of quads are sets: storing one twice changes nothing); only an update whose answer was
// lost is not repeated. A socket is trusted only when its owner repeats the lock's token.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Quad } from '@rdfjs/types';
import { McpLdError, type ProblemDetails } from '../core/problem.js';
import { readLockHolder, type LockHolder } from './data-lock.js';
import type {
  GraphSummary,
  IngestReceipt,
  QueryForm,
  QueryOptions,
  QueryResult,
  QueryText,
  QuadStore,
  UpdateOptions,
} from './quad-store.js';
import { encodeOwnerMessage, OwnerMessageReader, type OwnerRequest, type OwnerStatus } from './owner-protocol.js';
import { ownerLogName } from './store-owner.js';
import type { StartedOwner } from './owner-process.js';
import { parseTriples, readQueryText } from './sparql-results.js';
import { storeLocked, storeReadOnly, storeUnavailable } from './store-errors.js';

const decoder = new TextDecoder();
/** How many owners in a row may go away before answering one request before the client gives up on it. */
const maxAttempts = 5;
type RequestBody = OwnerRequest extends infer R ? (R extends OwnerRequest ? Omit<R, 'id'> : never) : never;

/** The connection was lost before the answer came. */
class OwnerGone extends Error {}

/** One connection to an owner: requests go out as they come and answers are matched by id. */
class OwnerConnection {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: { value: unknown; payload: Buffer }) => void; reject: (error: Error) => void }
  >();
  private lost = false;

  private constructor(private readonly socket: net.Socket) {}

  /** Connects and waits for the owner's hello: resolves only when it repeats `token`, the lock's text. */
  /**
   * Connects and waits for the owner's hello (its lock token): undefined when it does not come within `waitMs` (an
   * owner busy starting, or stuck), when the socket fails, or once `signal` is aborted.
   */
  static open(
    socketPath: string,
    token: string,
    { waitMs, signal }: { waitMs: number; signal: AbortSignal },
  ): Promise<OwnerConnection | undefined> {
    return new Promise((resolve) => {
      const socket = net.connect(socketPath);
      const reader = new OwnerMessageReader();
      let connection: OwnerConnection | undefined;
      const noHello = setTimeout(() => fail(), waitMs);
      const fail = () => {
        clearTimeout(noHello);
        signal.removeEventListener('abort', fail);
        if (connection) return connection.drop();
        socket.destroy();
        resolve(undefined);
      };
      if (signal.aborted) return fail();
      signal.addEventListener('abort', fail, { once: true });
      socket.on('error', fail);
      socket.on('close', fail);
      socket.on('data', (chunk: Buffer) => {
        let messages;
        try {
          messages = reader.push(chunk);
        } catch {
          return fail();
        }
        for (const { header, payload } of messages) {
          if (!connection) {
            if (header['hello'] !== token) return fail();
            clearTimeout(noHello);
            signal.removeEventListener('abort', fail);
            connection = new OwnerConnection(socket);
            resolve(connection);
          } else connection.settle(header, payload);
        }
      });
    });
  }

  get open(): boolean {
    return !this.lost;
  }

  request(body: RequestBody, payload?: Uint8Array): Promise<{ value: unknown; payload: Buffer }> {
    if (this.lost) return Promise.reject(new OwnerGone());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      for (const part of encodeOwnerMessage({ id, ...body }, payload)) this.socket.write(part);
    });
  }

  private settle(header: Record<string, unknown>, payload: Buffer): void {
    const id = header['id'] as number;
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (header['ok'] === true) waiter.resolve({ value: header['value'], payload });
    else waiter.reject(new McpLdError(header['problem'] as ProblemDetails));
  }

  private drop(): void {
    if (this.lost) return;
    this.lost = true;
    this.socket.destroy();
    for (const waiter of this.waiting.values()) waiter.reject(new OwnerGone());
    this.waiting.clear();
  }

  close(): void {
    this.socket.end();
    this.drop();
  }
}

interface OwnerClientOptions {
  /** Only to read: writes are refused here (store.read-only, 409) before they reach the owner. */
  readOnly?: boolean;
  /** Starts a background owner for the directory (when nobody holds it); resolves when it has been started. */
  startOwner: (dir: string) => StartedOwner;
  /** How long to wait for an owner to answer (it may be replaying a large journal), or for a reader to finish. */
  waitMs: number;
  /** Gives up connecting (and closes the client) when aborted: a tap that ends does not wait for an owner. */
  signal?: AbortSignal;
}

function describeHolder(holder: LockHolder): string {
  return `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
}

/** The refusal for a directory held by a process that serves nobody (a program using EmbeddedStore itself, not a
 *  reader): there is nothing to wait for. */
export function notShared(dir: string, holder: LockHolder): McpLdError {
  return storeLocked(`${dir} is in use by ${describeHolder(holder)}, which does not share it; stop it first`);
}

export class OwnerClient implements QuadStore {
  readonly kind = 'embedded' as const;
  private connection: OwnerConnection | undefined;
  private connecting: Promise<OwnerConnection> | undefined;
  private closed = false;
  /** Aborted by close: a connection being made is given up. */
  private readonly closing = new AbortController();

  private constructor(
    readonly dataDir: string,
    private readonly options: OwnerClientOptions,
  ) {}

  /** Connects to the owner of `dir`, starting one when nobody holds it. */
  static async connect(dir: string, options: OwnerClientOptions): Promise<OwnerClient> {
    const client = new OwnerClient(path.resolve(dir), options);
    const abandon = () => void client.close();
    options.signal?.addEventListener('abort', abandon, { once: true });
    try {
      if (options.signal?.aborted) abandon();
      await client.reach();
    } finally {
      options.signal?.removeEventListener('abort', abandon);
    }
    return client;
  }

  /** The live connection, or a new one: to the process the lock names, after starting one when there is none. */
  private reach(): Promise<OwnerConnection> {
    if (this.connection?.open) return Promise.resolve(this.connection);
    this.connecting ??= this.findOwner().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async findOwner(): Promise<OwnerConnection> {
    const deadline = Date.now() + this.options.waitMs;
    let started: StartedOwner | undefined;
    let waitingFor = 'an owner to start';
    for (;;) {
      if (this.closed) throw this.closedError();
      const holder = await readLockHolder(this.dataDir);
      if (holder?.live) {
        if (!holder.local)
          throw storeLocked(
            `${this.dataDir} is in use by ${describeHolder(holder)}, which cannot be reached from this host`,
          );
        if (holder.socket) {
          const connection = await OwnerConnection.open(holder.socket, holder.token, {
            waitMs: Math.max(25, deadline - Date.now()),
            signal: this.closing.signal,
          });
          if (connection && this.closed)
            connection.close(); // closed as it answered: nothing may keep it open
          else if (connection) return (this.connection = connection);
          waitingFor = `${describeHolder(holder)} to answer on ${holder.socket}`; // starting, or stopping
        } else if (holder.readOnly) {
          waitingFor = `${describeHolder(holder)}, which has it open to read only, to finish`;
        } else {
          throw notShared(this.dataDir, holder);
        }
      } else {
        const code = started?.exited();
        if (code !== undefined && code !== null && code !== 0) throw await this.ownerFailure(started!, code);
        if (!started || code === 0) started = this.options.startOwner(this.dataDir);
      }
      if (Date.now() > deadline)
        throw storeLocked(`${this.dataDir}: waited ${Math.round(this.options.waitMs / 1000)} s for ${waitingFor}`);
      await sleep(25);
    }
  }

  /** Why the background owner exited: the last failure it logged in the directory. */
  private async ownerFailure(started: StartedOwner, code: number): Promise<McpLdError> {
    const log = await readFile(path.join(this.dataDir, ownerLogName), 'utf8').catch(() => '');
    for (const line of log.trim().split('\n').reverse()) {
      try {
        const entry = JSON.parse(line) as { pid?: number; problem?: ProblemDetails };
        if (entry.problem && entry.pid === started.pid) return new McpLdError(entry.problem);
      } catch {
        // a line torn by a crash
      }
    }
    return storeUnavailable(`the owner started for ${this.dataDir} exited (${code}) without saying why`);
  }

  /**
   * Sends a request, and when the owner goes away before answering, sends it again to the next owner: every request
   * but an update, which may have been applied (then the caller is told so, and not the same update twice).
   */
  private async call(body: RequestBody, payload?: Uint8Array): Promise<{ value: unknown; payload: Buffer }> {
    if (this.closed) throw this.closedError();
    for (let attempt = 1; ; attempt++) {
      const connection = await this.reach();
      try {
        return await connection.request(body, payload);
      } catch (error) {
        if (!(error instanceof OwnerGone)) throw error;
        if (body.op === 'update')
          throw storeUnavailable(
            `the owner of ${this.dataDir} went away before it answered the update: query the store to see whether it was applied`,
            1,
          );
        // Owners that die one after the other on the same request: the request is the likelier cause.
        if (attempt === maxAttempts)
          throw storeUnavailable(
            `${maxAttempts} owners of ${this.dataDir} in a row went away before they answered this ${body.op}`,
            1,
          );
      }
    }
  }

  private assertWritable(): void {
    if (this.options.readOnly) throw storeReadOnly(this.dataDir);
  }

  async ingest(nquads: string | Uint8Array): Promise<IngestReceipt> {
    this.assertWritable();
    const bytes = typeof nquads === 'string' ? Buffer.from(nquads, 'utf8') : nquads;
    return (await this.call({ op: 'ingest' }, bytes)).value as IngestReceipt;
  }

  async query(sparql: string, options: QueryOptions = {}): Promise<QueryResult> {
    return readQueryText(await this.queryText(sparql, options));
  }

  async queryText(sparql: string, options: QueryOptions = {}): Promise<QueryText> {
    const answer = await this.call({ op: 'queryText', sparql, options });
    return { form: answer.value as QueryForm, data: answer.payload };
  }

  async update(sparql: string, options: UpdateOptions = {}): Promise<void> {
    this.assertWritable();
    await this.call({ op: 'update', sparql, options });
  }

  async graphs(): Promise<GraphSummary[]> {
    return (await this.call({ op: 'graphs' })).value as GraphSummary[];
  }

  async graphQuads(graph: string): Promise<Quad[]> {
    return parseTriples(decoder.decode(await this.graphText(graph)), graph);
  }

  async graphText(graph: string): Promise<Uint8Array> {
    return (await this.call({ op: 'graphText', graph })).payload;
  }

  async deleteGraph(graph: string): Promise<boolean> {
    this.assertWritable();
    return (await this.call({ op: 'deleteGraph', graph })).value as boolean;
  }

  async size(): Promise<number> {
    return (await this.call({ op: 'size' })).value as number;
  }

  /** What the owner says of itself and the directory (`mcp-ld status`). */
  async status(): Promise<OwnerStatus> {
    return (await this.call({ op: 'status' })).value as OwnerStatus;
  }

  private closedError(): McpLdError {
    return storeUnavailable(`the connection to the owner of ${this.dataDir} is closed`);
  }

  /** Closes the connection; a connection being sought is given up (within one poll, 25 ms). */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.connection?.close();
  }
}
