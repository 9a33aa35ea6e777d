// The options every command that opens a store takes (`--data DIR` or `--store URL`), declared once for them all.
import type { OptionSpec } from './command.js';

export const dataOption = { type: 'string', value: 'DIR', env: 'MCPLD_DATA' } as const satisfies OptionSpec;

export const spoolOption = { type: 'string', value: 'DIR', env: 'MCPLD_SPOOL' } as const satisfies OptionSpec;

export const storeOptions = {
  data: dataOption,
  store: { type: 'string', value: 'URL', env: 'MCPLD_STORE' },
} as const satisfies Record<string, OptionSpec>;
