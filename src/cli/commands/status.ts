// `mcp-ld status`: what each data directory (those named, and every one an owner has held) and each spool holds:
// the directory's owner and the processes it serves, its sessions, and what waits undelivered in the spool or was
// refused and set aside. Reads only: it never starts an owner nor writes to a directory.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readStoreConfig, readTapConfig } from '../../core/config.js';
import { decodeSegment } from '../../rdf/vocabulary.js';
import { readLockHolder } from '../../store/data-lock.js';
import { openStore } from '../../store/open-store.js';
import { OwnerClient } from '../../store/owner-client.js';
import { quarantineFileFor, readSpool, spoolFileFor } from '../../tap/delivery.js';
import { parseOptions, write, type Command, type OptionSpecs } from '../command.js';
import { dataOption, spoolOption } from '../store-options.js';

const plural = (count: number, word: string) =>
  `${count.toLocaleString('en')} ${word}${count === 1 ? '' : /(s|ch)$/.test(word) ? 'es' : 's'}`;

function bytes(size: number): string {
  return size < 1024
    ? `${size} bytes`
    : size < 1024 * 1024
      ? `${(size / 1024).toFixed(1)} KiB`
      : `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

/** The lines about one spool file (and its quarantine), or none when both are empty. */
function spoolLines(file: string): string[] {
  const lines: string[] = [];
  const waiting = readSpool(file);
  if (waiting.length > 0) {
    const records = waiting.reduce((sum, batch) => sum + batch.records, 0);
    const oldest = waiting
      .map((batch) => batch.at)
      .filter((at): at is string => at !== undefined)
      .sort()[0];
    lines.push(
      `  spool: ${plural(waiting.length, 'batch')} (${plural(records, 'record')}, ${bytes(statSync(file).size)}) undelivered${oldest ? `, the oldest record from ${oldest}` : ''}: ${file}`,
    );
  }
  const refused = readSpool(quarantineFileFor(file));
  if (refused.length > 0) {
    const records = refused.reduce((sum, batch) => sum + batch.records, 0);
    lines.push(
      `  refused: ${plural(refused.length, 'batch')} (${plural(records, 'record')}) set aside in ${quarantineFileFor(file)}`,
    );
  }
  return lines;
}

/** The owner and the sessions of one data directory, as far as they can be read without writing to it. */
async function directoryLines(dir: string, waitMs: number): Promise<string[]> {
  if (!existsSync(dir)) return ['  does not exist'];
  const holder = await readLockHolder(dir);
  if (holder?.live && !holder.local)
    return [
      `  owner: process ${holder.pid} on host ${holder.host}, since ${holder.since} (another host: not reachable from here)`,
    ];
  if (holder?.live && holder.socket) {
    const client = await OwnerClient.connect(dir, {
      readOnly: true,
      waitMs,
      startOwner: () => ({ pid: undefined, exited: () => 0 }),
    });
    try {
      const status = await client.status();
      return [
        `  owner: process ${status.pid} (mcp-ld ${status.command}), since ${status.since}, serving ${plural(status.clients - 1, 'other process')} on ${holder.socket}`,
        `  sessions: ${status.sessions.toLocaleString('en')} (${plural(status.quads, 'quad')})`,
      ];
    } finally {
      await client.close();
    }
  }
  if (holder?.live)
    return [
      `  owner: process ${holder.pid}, since ${holder.since}, ${holder.readOnly ? 'reading it (a query)' : 'which does not share it'}`,
    ];
  const store = await openStore(readStoreConfig({ data: dir }), { role: 'read' });
  try {
    const graphs = await store.graphs();
    return [
      '  owner: none (no process has it open)',
      `  sessions: ${graphs.length.toLocaleString('en')} (${plural(
        graphs.reduce((sum, g) => sum + g.quads, 0),
        'quad',
      )})`,
    ];
  } finally {
    await store.close();
  }
}

const options = {
  data: {
    ...dataOption,
    multiple: true,
    default: [],
    description: 'a data directory to report on, besides those owners have held on this machine',
  },
  spool: spoolOption,
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const statusCommand: Command = {
  name: 'status',
  summary: "show each data directory's owner and sessions, and what waits in the spool",
  usage: 'mcp-ld status [--data DIR]... [--spool DIR]',
  options,
  environment: ['MCPLD_OWNER_WAIT_MS'],
  examples: ['mcp-ld status', 'mcp-ld status --data ./graph'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const config = readStoreConfig({});
    const { spoolDir } = readTapConfig({ spool: values.spool });
    // The directories owners have held, but for those since removed.
    const listed = existsSync(config.directoryList)
      ? readFileSync(config.directoryList, 'utf8')
          .split('\n')
          .filter((dir) => dir && existsSync(dir))
      : [];
    const spools = existsSync(spoolDir)
      ? readdirSync(spoolDir).filter((name) => name.endsWith('.spool.jsonl') || name.endsWith('.rejected.jsonl'))
      : [];
    const targets = new Set(spools.map((name) => decodeSegment(name.replace(/(\.spool|\.rejected)\.jsonl$/, ''))));
    const named = values.data.length > 0 ? values.data : config.dataDir ? [config.dataDir] : [];
    const directories = [
      ...new Set(
        [...named, ...listed, ...[...targets].filter((target) => path.isAbsolute(target))].map((dir) =>
          path.resolve(dir),
        ),
      ),
    ];
    const out: string[] = [];
    for (const dir of directories) {
      out.push(`data directory ${dir}`);
      try {
        out.push(...(await directoryLines(dir, config.ownerWaitMs)));
      } catch (error) {
        out.push(`  cannot be read: ${(error as Error).message}`);
      }
      const spool = spoolLines(spoolFileFor(spoolDir, dir));
      out.push(...(spool.length > 0 ? spool : ['  spool: nothing undelivered']));
    }
    for (const target of [...targets].filter((target) => !path.isAbsolute(target))) {
      out.push(`store or service ${target}`, ...spoolLines(spoolFileFor(spoolDir, target)));
    }
    if (out.length === 0) out.push(`no data directory known yet (none named, none held, nothing in ${spoolDir})`);
    await write(io.stdout, out.join('\n') + '\n');
    return 0;
  },
};
