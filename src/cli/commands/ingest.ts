// `mcp-ld ingest`: lifts MCP messages from files (or stdin) and stores them, in batches, in the embedded store
// (--data DIR, or memory only) or a remote SPARQL store (--store URL). Bad lines are reported with their line number
// and skipped; the rest is stored. A store error stops the ingest: what was acknowledged before it stays stored.
import { readStoreConfig, storeVariables } from '../../core/config.js';
import { protocolOptionSpec } from '../protocol-option.js';
import { baseOptionSpec, checkBaseOption, commandLifter } from '../lifting-options.js';
import { storeOptions } from '../store-options.js';
import { derivedSessionId } from '../../lift/session-id.js';
import { parseInput } from '../../lift/input.js';
import { Conversion, summaryLine } from '../../lift/convert.js';
import { openStore } from '../../store/open-store.js';
import { asStoreError, BatchWriter } from '../../store/batch-writer.js';
import type { QuadStore } from '../../store/quad-store.js';
import { parseOptions, UsageError, write, type Command, type CommandIo, type OptionSpecs } from '../command.js';
import { checkReadable, readInputBytes, refuseWrongKind } from '../read-input.js';
import { conversionFailures, reportFailedLines } from '../failed-lines.js';

/** A progress line on a terminal, redrawn at most ten times a second; nothing when stderr is not a terminal. */
class Progress {
  private last = 0;
  private shown = false;
  private readonly started = performance.now();

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(file: string, fraction: number, messages: number, force = false): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const width = 20;
    const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
    const rate = Math.round(messages / Math.max((now - this.started) / 1000, 0.001));
    const name = file.length > 24 ? `…${file.slice(-23)}` : file;
    const line = `[${'='.repeat(filled)}${' '.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${name} ${messages.toLocaleString('en')} msgs ${rate.toLocaleString('en')}/s`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 100) - 1)}\x1b[K`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}

function lineCount(bytes: Buffer): number {
  let count = 1;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  return count;
}

const options = {
  ...storeOptions,
  session: {
    type: 'string',
    value: 'ID',
    description:
      'the session of messages that are not capture records (default: derived from each input, so ingesting it again changes nothing)',
  },
  base: baseOptionSpec,
  protocol: protocolOptionSpec,
  batch: { type: 'string', default: '1000', value: 'N', description: 'messages stored per batch' },
  quiet: { type: 'boolean', default: false, description: 'no summary line on stderr' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'lift MCP messages and store them (embedded store, durable with --data, or a remote SPARQL store)',
  usage:
    'mcp-ld ingest FILE... [--data DIR | --store URL] [--session ID] [--base IRI] [--protocol VERSION] [--batch 1000] [--quiet]',
  options,
  environment: storeVariables,
  examples: [
    'mcp-ld ingest capture.jsonl --data ./graph',
    'MCPLD_STORE_USER=svc MCPLD_STORE_PASSWORD=… mcp-ld ingest capture.jsonl --store http://127.0.0.1:8890/sparql-auth',
  ],
  async run(args: string[], io: CommandIo) {
    const { values, positionals } = parseOptions(args, options, true);
    if (positionals.length === 0) throw new UsageError('name at least one input file (or - for stdin)');
    if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
    const batch = Number(values.batch);
    if (!Number.isSafeInteger(batch) || batch <= 0)
      throw new UsageError('--batch must be a positive number of messages');
    checkBaseOption(values.base);
    const config = readStoreConfig({ data: values.data, store: values.store });
    checkReadable(positionals); // before the store is opened: a missing file leaves nothing behind in a data directory

    // Plain messages without a session: a session id derived from the input (as `convert` does), so the same input
    // gives the same graph and ingesting it again changes nothing.
    let current: Buffer = Buffer.alloc(0);
    const session = values.session ?? (() => derivedSessionId(current));
    const lifter = commandLifter(values, session);
    const conversion = new Conversion();
    // The store opens (its worker and Oxigraph's WebAssembly, ~55 ms) while the first batch is read and lifted. A store
    // that cannot open fails the command as before, from the `finally` below, once that batch waits for it.
    const opening = openStore(config, {
      command: 'ingest',
      onWarning: (message) => void io.stderr.write(`mcp-ld ingest: warning: ${message}\n`),
    });
    opening.catch(() => undefined); // reported where it is awaited
    const progress = new Progress(io.stderr);
    const writer = new BatchWriter(opening, batch);
    let failedLines = 0;
    let store: QuadStore;
    try {
      for (const file of positionals) {
        const name = file === '-' ? 'stdin' : file;
        const text = await readInputBytes(file, io.stdin);
        refuseWrongKind(file, text, 'ingest');
        current = text;
        const lines = progress.enabled ? lineCount(text) : 1;
        const failedBefore = conversion.summary.failed.length;
        await conversion.run(parseInput(text), {
          lift: (record) => lifter.liftToNQuads(record),
          take: (lifted) => writer.add(lifted.nquads, { quads: lifted.quadCount, graph: lifted.graph }),
          after: (item) => {
            if (writer.error) return true;
            progress.update(name, item.line / lines, conversion.summary.messages);
          },
        });
        progress.clear();
        await reportFailedLines(
          io.stderr,
          conversionFailures(conversion.summary.failed.slice(failedBefore), `${name}: `),
        );
        failedLines = conversion.summary.failed.length;
        if (writer.error) break;
      }
      await writer.finish();
      progress.clear();
    } finally {
      store = await opening;
      await store.close().catch(async (error: unknown) => {
        await write(io.stderr, `mcp-ld ingest: closing the store failed: ${(error as Error).message}\n`);
        writer.error ??= asStoreError(error);
      });
    }
    if (writer.error) {
      await write(io.stderr, `mcp-ld ingest: ${writer.error.title}: ${writer.error.detail}\n`);
      await write(
        io.stderr,
        `mcp-ld ingest: stopped; ${writer.stored.messages} messages (${writer.stored.quads} quads) were stored before the error\n`,
      );
    }
    const where = store.kind === 'remote' ? `the remote store` : config.dataDir ? config.dataDir : 'memory';
    if (!values.quiet) {
      await write(
        io.stderr,
        `mcp-ld ingest: ${summaryLine(conversion.summary)}; stored ${writer.stored.quads} quads in ${writer.stored.batches} batch${writer.stored.batches === 1 ? '' : 'es'} into ${where}${writer.error ? '; 1 store error' : ''}\n`,
      );
    }
    return failedLines > 0 || writer.error ? 1 : 0;
  },
};
