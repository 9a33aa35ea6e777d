import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { trafficFile } from '../helpers/corpus.js';
import { quarantineFileFor, spoolFileFor } from '../../src/tap/delivery.js';

describe('cli: status', function () {
  this.timeout(60_000);
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-ld-status-'));
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(root, 'cache'),
    MCPLD_SPOOL: path.join(root, 'spool'),
    MCPLD_OWNER_IDLE_MS: '1000',
  };
  after(() => rmSync(root, { recursive: true, force: true }));

  it('lists a data directory nobody holds with its sessions, what waits in its spool (with the oldest record) and what was set aside', async () => {
    const data = path.join(root, 'graph');
    const ingested = await runCli(['ingest', trafficFile, '--data', data, '--quiet'], { env });
    assert.equal(ingested.code, 0, ingested.stderr);
    mkdirSync(env.MCPLD_SPOOL);
    const spool = spoolFileFor(env.MCPLD_SPOOL, data);
    const line = (at: string, records: number) =>
      JSON.stringify({ nquads: '<urn:x:a> <urn:x:b> "c" <urn:mcp-ld:session/s> .\n', records, at }) + '\n';
    writeFileSync(spool, line('2026-12-01T10:00:02.000Z', 4) + line('2026-12-01T10:00:01.000Z', 3));
    writeFileSync(quarantineFileFor(spool), line('2026-12-01T09:00:00.000Z', 2));
    const status = await runCli(['status'], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(
      status.stdout,
      [
        `data directory ${data}`,
        '  owner: none (no process has it open)',
        '  sessions: 1 (6,561 quads)',
        `  spool: 2 batches (7 records, ${statSync(spool).size} bytes) undelivered, the oldest record from 2026-12-01T10:00:01.000Z: ${spool}`,
        `  refused: 1 batch (2 records) set aside in ${quarantineFileFor(spool)}`,
        '',
      ].join('\n'),
      'ingest held the directory, so the list of data directories names it',
    );
  });

  it('says so when it knows no data directory, and names one that does not exist', async () => {
    const empty = { ...env, XDG_CACHE_HOME: path.join(root, 'other-cache'), MCPLD_SPOOL: path.join(root, 'no-spool') };
    const none = await runCli(['status'], { env: empty });
    assert.equal(none.stdout, `no data directory known yet (none named, none held, nothing in ${empty.MCPLD_SPOOL})\n`);
    const missing = await runCli(['status', '--data', path.join(root, 'missing')], { env: empty });
    assert.equal(
      missing.stdout,
      `data directory ${path.join(root, 'missing')}\n  does not exist\n  spool: nothing undelivered\n`,
    );
  });
});
