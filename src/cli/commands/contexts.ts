// `mcp-ld contexts`: generates the JSON-LD contexts from the effective schemas into contexts/ (or --out DIR): the
// seed version's (2025-06-18) at the top, and every protocol version's under `<version>/` (`--protocol V`: that
// version's only), one line per file written; `--check` writes nothing and exits 1 naming every file that differs.
import path from 'node:path';
import { contextsDir } from '../../core/paths.js';
import {
  buildAllContexts,
  buildVersionContexts,
  checkGeneratedContexts,
  writeGeneratedContexts,
} from '../../context/index.js';
import { parseOptions, write, type Command, type OptionSpecs } from '../command.js';
import { reportDrift, shown } from '../generated-files.js';
import { protocolOption, protocolOptionSpec } from '../protocol-option.js';

const options = {
  out: { type: 'string', value: 'DIR', description: "where to write them (default: the package's contexts/)" },
  protocol: { ...protocolOptionSpec, description: "only this version's contexts (default: every version's)" },
  check: {
    type: 'boolean',
    description: 'write nothing; exit 1 naming every file that differs from what the schemas give',
  },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const contextsCommand: Command = {
  name: 'contexts',
  summary: 'generate the JSON-LD contexts of every protocol version from the schemas (--check: verify them)',
  usage: 'mcp-ld contexts [--out DIR] [--protocol VERSION] [--check]',
  options,
  examples: ['mcp-ld contexts --out /tmp/contexts', 'mcp-ld contexts --check'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const dir = path.resolve(values.out ?? contextsDir);
    const version = protocolOption(values.protocol);
    const contexts = version === undefined ? buildAllContexts() : buildVersionContexts(version);
    if (values.check) {
      const again = ['mcp-ld contexts', values.out ? `--out ${values.out}` : '', version ? `--protocol ${version}` : '']
        .filter(Boolean)
        .join(' ');
      return reportDrift(io.stderr, 'contexts', dir, checkGeneratedContexts(dir, contexts), again);
    }
    const { written, removed } = writeGeneratedContexts(dir, contexts);
    for (const file of written) await write(io.stdout, `${shown(file)}\n`);
    for (const file of removed) await write(io.stdout, `removed ${shown(file)}\n`);
    return 0;
  },
};
