// The package claims Node.js >= 20.19: every package npm installed for it must run there too, or `npm install` warns
// (EBADENGINE) and a newcomer on Node 20 wonders what is broken. package.json's `overrides` hold the versions chosen.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { packageRoot } from '../../src/core/paths.js';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

/** Every package.json under node_modules (nested ones included), as [where, manifest]. */
function installed(
  dir: string,
  found: [string, { name?: string; version?: string; engines?: { node?: string } }][] = [],
) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.bin' || entry.name === '.cache') continue;
    const where = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installed(where, found);
      continue;
    }
    const manifest = path.join(where, 'package.json');
    if (existsSync(manifest)) found.push([where, JSON.parse(readFileSync(manifest, 'utf8'))]);
    installed(path.join(where, 'node_modules'), found);
  }
  return found;
}

describe('dependencies fit the Node.js versions the package claims', () => {
  it('every installed package supports the oldest Node.js of the engines field', () => {
    const claim = (
      JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    const oldest = semver.minVersion(claim)!.version;
    const misfits = installed(path.join(packageRoot, 'node_modules'))
      .filter(
        ([, manifest]) =>
          manifest.engines?.node &&
          typeof manifest.engines.node === 'string' &&
          !semver.satisfies(oldest, manifest.engines.node),
      )
      .map(
        ([where, manifest]) =>
          `${manifest.name}@${manifest.version} wants node ${manifest.engines!.node} (${path.relative(packageRoot, where)})`,
      );
    assert.deepEqual(misfits, [], `packages that want a newer Node.js than ${oldest}`);
  });
});
