// Opens the store the configuration names: a remote SPARQL 1.1 store (--store URL / MCPLD_STORE), or the embedded
// one, durable in a data directory (--data DIR / MCPLD_DATA) or, without one, in memory only (which it warns about).
// A data directory is shared by every process that names it: the first to open it owns it (store-owner.ts) and the
// others reach it through its owner (owner-client.ts); see `DataDirectoryRole`.
import type { StoreConfig } from '../core/config.js';
import type { QuadStore } from './quad-store.js';
import { EmbeddedStore } from './embedded-store.js';
import { RemoteStore } from './remote-store.js';
import { readLockHolder } from './data-lock.js';
import { notShared, OwnerClient } from './owner-client.js';
import { startOwnerProcess } from './owner-process.js';
import { StoreOwner } from './store-owner.js';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { noDataDirectory, storeLocked, storeUnavailable } from './store-errors.js';

/**
 * How a command uses a data directory:
 * - `hold` (serve, ingest): owns it when nobody does, serving the others while it runs; else a client of its owner;
 * - `client` (tap, proxy): always a client; when nobody holds the directory, a background owner is started;
 * - `read` (query): a client of its owner; when nobody holds it, opens it itself to read only (writing nothing) —
 *   writers that come meanwhile wait for it to finish.
 */
export type DataDirectoryRole = 'hold' | 'client' | 'read';

export interface OpenStoreOptions {
  /** Told what the user should know (memory-only store, a torn journal tail cut off); the CLI prints it on stderr. */
  onWarning?: (message: string) => void;
  /** How the command uses a data directory (default `hold`). */
  role?: DataDirectoryRole;
  /** The command, as `status` names the owner: serve, ingest. */
  command?: string;
  /** Gives up reaching a data directory's owner when aborted (a `client` that is done before its owner answers). */
  signal?: AbortSignal;
}

export const memoryOnlyWarning =
  'no data directory (--data DIR or MCPLD_DATA): the store is in memory only, and what it holds is lost when the process ends';

export async function openStore(config: StoreConfig, options: OpenStoreOptions = {}): Promise<QuadStore> {
  const onWarning = options.onWarning ?? (() => {});
  if (config.storeUrl) {
    return RemoteStore.open({
      queryUrl: config.storeUrl,
      ...(config.storeUpdateUrl ? { updateUrl: config.storeUpdateUrl } : {}),
      ...(config.storeGraphsUrl ? { graphsUrl: config.storeGraphsUrl } : {}),
      ...(config.storeUser !== undefined && config.storePassword !== undefined
        ? { user: config.storeUser, password: config.storePassword }
        : {}),
      queryTimeoutMs: config.queryTimeoutMs,
      maxLiteralBytes: config.maxLiteralBytes,
    });
  }
  const limits = {
    maxQuads: config.maxQuads,
    queryTimeoutMs: config.queryTimeoutMs,
    maxQueuedQueries: config.maxQueued,
    onWarning,
  };
  if (!config.dataDir) {
    onWarning(memoryOnlyWarning);
    return EmbeddedStore.open(limits);
  }
  return openDataDirectory(
    config.dataDir,
    options.role ?? 'hold',
    config,
    options.command ?? 'mcp-ld',
    limits,
    options.signal,
  );
}

async function openDataDirectory(
  dir: string,
  role: DataDirectoryRole,
  config: StoreConfig,
  command: string,
  limits: Parameters<typeof EmbeddedStore.open>[0],
  signal: AbortSignal | undefined,
): Promise<QuadStore> {
  // To read, a directory that is not there is a mistake (a typo in --data), not an empty store to create.
  if (role === 'read' && !existsSync(dir)) throw noDataDirectory(dir);
  const client = () =>
    OwnerClient.connect(dir, {
      readOnly: role === 'read',
      startOwner: startOwnerProcess,
      waitMs: config.ownerWaitMs,
      ...(signal ? { signal } : {}),
    });
  const deadline = Date.now() + config.ownerWaitMs;
  for (;;) {
    if (signal?.aborted) throw storeUnavailable(`gave up reaching the owner of ${dir}`);
    const holder = await readLockHolder(dir);
    if (holder?.live && holder.socket) return client();
    if (holder?.live && !holder.readOnly) throw notShared(dir, holder);
    if (!holder?.live) {
      try {
        if (role === 'client') return await client();
        if (role === 'read') return await EmbeddedStore.open({ ...limits, dataDir: dir, readOnly: true });
        const owner = await StoreOwner.start({ ...limits, dataDir: dir, command, directoryList: config.directoryList });
        return await owner.localStore();
      } catch (error) {
        if ((error as { code?: string }).code !== 'store.locked') throw error; // another process was quicker: again
      }
    }
    if (Date.now() > deadline)
      throw storeLocked(
        `${dir}: waited ${Math.round(config.ownerWaitMs / 1000)} s for process ${holder?.pid}, which has it open to read only, to finish`,
      );
    await sleep(25);
  }
}
