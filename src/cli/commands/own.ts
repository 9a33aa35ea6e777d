// `mcp-ld own --data DIR`: holds a data directory and serves it to every other mcp-ld process that names it, until it
// has been idle (MCPLD_OWNER_IDLE_MS) or is stopped. The commands that need an owner start it themselves, in the
// background; it has no terminal, so what goes wrong is written to DIR/owner.log, where they read it.
import { readStoreConfig, storeVariables } from '../../core/config.js';
import { isMcpLdError } from '../../core/problem.js';
import { logOwner, StoreOwner } from '../../store/store-owner.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { dataOption } from '../store-options.js';

const options = { data: { ...dataOption, description: 'the data directory to hold' } } as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const ownCommand: Command = {
  name: 'own',
  summary: 'hold a data directory and serve it to the other mcp-ld processes (they start it when none runs)',
  usage: 'mcp-ld own --data DIR',
  options,
  environment: storeVariables,
  examples: ['mcp-ld own --data ./graph'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const config = readStoreConfig({ data: values.data });
    if (!config.dataDir) throw new UsageError('name the data directory to hold: --data DIR (or MCPLD_DATA)');
    const dataDir = config.dataDir;
    const say = (text: string) => void write(io.stderr, `mcp-ld own: ${text}\n`).catch(() => {});
    let idle!: () => void;
    const stopped = new Promise<void>((resolve) => (idle = resolve));
    let owner: StoreOwner;
    try {
      owner = await StoreOwner.start({
        dataDir,
        command: 'own',
        maxQuads: config.maxQuads,
        queryTimeoutMs: config.queryTimeoutMs,
        maxQueuedQueries: config.maxQueued,
        directoryList: config.directoryList,
        idleMs: config.ownerIdleMs,
        onIdle: idle,
        onWarning: (message) => {
          say(message);
          void logOwner(dataDir, { warning: message });
        },
      });
    } catch (error) {
      // Another process took the directory first: it is the owner, and this one is not needed.
      if (isMcpLdError(error) && error.code === 'store.locked') return 0;
      await logOwner(dataDir, { failure: error });
      throw error;
    }
    say(`holding ${owner.dataDir}, serving it on ${owner.socket}`);
    const stop = () => idle();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    await stopped;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await owner.close();
    say(`released ${owner.dataDir}`);
    return 0;
  },
};
