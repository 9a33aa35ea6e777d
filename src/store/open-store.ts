// Opens the store the configuration names: a remote SPARQL 1.1 store (--store URL / MCPLD_STORE), or the embedded
// one, durable in a data directory (--data DIR / MCPLD_DATA) or, without one, in memory only (which it warns about).
import type { StoreConfig } from '../core/config.js';
import type { QuadStore } from './quad-store.js';
import { EmbeddedStore } from './embedded-store.js';
import { RemoteStore } from './remote-store.js';

export interface OpenStoreOptions {
  /** Told what the user should know (memory-only store, a torn journal tail cut off); the CLI prints it on stderr. */
  onWarning?: (message: string) => void;
  /** Only to read (`mcp-ld query`): the embedded store writes nothing to its data directory, and refuses writes. */
  readOnly?: boolean;
}

export const memoryOnlyWarning = 'no data directory (--data DIR or MCPLD_DATA): the store is in memory only, and what it holds is lost when the process ends';

export async function openStore(config: StoreConfig, options: OpenStoreOptions = {}): Promise<QuadStore> {
  const onWarning = options.onWarning ?? (() => {});
  if (config.storeUrl) {
    return RemoteStore.open({
      queryUrl: config.storeUrl,
      ...(config.storeUpdateUrl ? { updateUrl: config.storeUpdateUrl } : {}),
      ...(config.storeGraphsUrl ? { graphsUrl: config.storeGraphsUrl } : {}),
      ...(config.storeUser !== undefined && config.storePassword !== undefined ? { user: config.storeUser, password: config.storePassword } : {}),
      queryTimeoutMs: config.queryTimeoutMs,
      maxLiteralBytes: config.maxLiteralBytes,
    });
  }
  if (!config.dataDir) onWarning(memoryOnlyWarning);
  return EmbeddedStore.open({
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    maxQuads: config.maxQuads,
    queryTimeoutMs: config.queryTimeoutMs,
    maxQueuedQueries: config.maxQueued,
    onWarning,
    readOnly: options.readOnly === true,
  });
}
