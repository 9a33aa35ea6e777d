import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contextsDir } from '../../src/core/paths.js';
import { loadSchema, protocolVersions } from '../../src/schema/index.js';
import {
  buildAllContexts,
  buildVersionContexts,
  checkContexts,
  checkGeneratedContexts,
  writeContexts,
  writeGeneratedContexts,
} from '../../src/context/index.js';
import { runCli } from '../helpers/run-cli.js';

/** Every file under `dir`, relative, with its bytes. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else files.set(relative, readFileSync(path.join(dir, relative), 'utf8'));
    }
  };
  walk('');
  return files;
}

describe('context: the committed contexts/ match the schema', () => {
  const temporary: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-contexts-'));
    temporary.push(dir);
    return dir;
  };
  after(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('regenerating them reproduces contexts/ byte for byte, every protocol version included (else run `node bin/mcp-ld contexts`)', () => {
    const dir = tempDir();
    writeGeneratedContexts(dir, buildAllContexts());
    const committed = tree(contextsDir);
    const generated = tree(dir);
    assert.deepEqual([...committed.keys()].sort(), [...generated.keys()].sort());
    const differing = [...generated].filter(([file, text]) => committed.get(file) !== text).map(([file]) => file);
    assert.deepEqual(differing, [], `contexts/ has drifted from the schema: ${differing.join(', ')}`);
    for (const version of protocolVersions)
      assert.ok(generated.has(`${version}/messages/CallToolRequest.jsonld`), version);
    // The top level stays the seed's version, term for term the same as its own folder.
    for (const [file, text] of generated)
      if (!/^\d/.test(file)) assert.equal(generated.get(`2025-06-18/${file}`), text, file);
  });

  it('`--check` names a drifted file of one version, and `--protocol V` regenerates that version alone', async () => {
    const dir = tempDir();
    cpSync(contextsDir, dir, { recursive: true });
    writeFileSync(path.join(dir, '2026-07-28', 'messages', 'DiscoverRequest.jsonld'), '{}\n');
    writeFileSync(path.join(dir, '2025-11-25', 'messages', 'NoSuchRequest.jsonld'), '{}\n');
    const check = await runCli(['contexts', '--check', '--out', dir]);
    assert.equal(check.code, 1);
    assert.match(check.stderr, /2026-07-28\/messages\/DiscoverRequest\.jsonld differs/);
    assert.match(check.stderr, /2025-11-25\/messages\/NoSuchRequest\.jsonld is not generated/);
    const one = await runCli(['contexts', '--protocol', '2026-07-28', '--out', dir]);
    assert.equal(one.code, 0, one.stderr);
    assert.ok(
      one.stdout.split('\n').every((line) => line === '' || line.includes('2026-07-28')),
      one.stdout,
    );
    assert.deepEqual(checkGeneratedContexts(dir, buildVersionContexts('2026-07-28')), []);
    const unknown = await runCli(['contexts', '--protocol', '2099-01-01']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /known versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28/);
  });

  it('`mcp-ld contexts --out DIR` writes the same files and prints one line per file', async () => {
    const dir = tempDir();
    const result = await runCli(['contexts', '--out', dir]);
    assert.equal(result.code, 0, result.stderr);
    const generated = tree(dir);
    assert.deepEqual(tree(contextsDir), generated);
    assert.equal(result.stdout.trim().split('\n').length, generated.size);
    assert.match(result.stdout, /messages\/CallToolRequest\.jsonld$/m);
  });

  it('`mcp-ld contexts --check` exits 0 on the committed tree', async () => {
    const result = await runCli(['contexts', '--check']);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
  });

  it('`--check` exits 1 naming every changed, missing and unexpected file, and writes nothing', async () => {
    const dir = tempDir();
    cpSync(contextsDir, dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.jsonld'), '{}\n');
    rmSync(path.join(dir, 'messages', 'CallToolRequest.jsonld'));
    writeFileSync(path.join(dir, 'messages', 'NoSuchRequest.jsonld'), '{}\n');
    const result = await runCli(['contexts', '--check', '--out', dir]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /mcp\.jsonld differs/);
    assert.match(result.stderr, /CallToolRequest\.jsonld is missing/);
    assert.match(result.stderr, /NoSuchRequest\.jsonld is not generated/);
    assert.equal(readFileSync(path.join(dir, 'mcp.jsonld'), 'utf8'), '{}\n', '--check writes nothing');
    assert.deepEqual(
      checkContexts(dir, loadSchema()).map((d) => `${d.path} ${d.problem}`),
      ['mcp.jsonld differs', 'messages/CallToolRequest.jsonld missing', 'messages/NoSuchRequest.jsonld unexpected'],
    );
  });

  it('writing removes the context of a definition the schema no longer has', () => {
    const dir = tempDir();
    cpSync(contextsDir, dir, { recursive: true });
    writeFileSync(path.join(dir, 'messages', 'NoSuchRequest.jsonld'), '{}\n');
    const { removed } = writeContexts(dir, loadSchema());
    assert.deepEqual(removed, [path.join(dir, 'messages', 'NoSuchRequest.jsonld')]);
    assert.deepEqual(checkContexts(dir, loadSchema()), []);
  });
});
