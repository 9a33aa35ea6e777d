// A schema index no other test (or run) has built, for tests of what building one caches, and the cache's entries.
import { existsSync, readdirSync } from 'node:fs';
import { cacheDir } from '../../src/core/cache.js';
import { createSchemaIndex, loadOverlay, loadSeedDocuments, type SchemaIndex } from '../../src/schema/index.js';

/** The names in the cache directory now. */
export const cacheEntries = (): Set<string> => new Set(existsSync(cacheDir) ? readdirSync(cacheDir) : []);

/**
 * The shipped schemas with one more correction (a description naming `test` and this run), unique to this run:
 * whatever is cached for it (validators, plans, snapshots) is the calling test's.
 */
export function schemaOfOurOwn(test: string): SchemaIndex {
  const overlay = loadOverlay();
  overlay.corrections.push({
    at: '/definitions/PingRequest',
    in: 'mcp',
    why: 'a test schema',
    set: { description: `${test} ${process.pid} ${Date.now()}` },
  });
  return createSchemaIndex(loadSeedDocuments(), overlay);
}
