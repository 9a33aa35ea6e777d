// A command's help (`mcp-ld help NAME`, `mcp-ld NAME --help`), written from its declaration: the usage, every option
// with its default and the environment variable that sets it, the other variables it reads, and examples.
import { environmentVariables } from '../core/config.js';
import type { Command, OptionSpec } from './command.js';

/** `--data DIR`, `--strict`. */
export function optionSynopsis(name: string, spec: OptionSpec): string {
  return `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
}

function shownDefault(spec: OptionSpec): string | undefined {
  const value = spec.default;
  if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** What an option does, its default, whether it may be repeated, and its environment variable. */
function optionDescription(spec: OptionSpec): string {
  const text = spec.description ?? (spec.env ? environmentVariables[spec.env] : '');
  const fallback = shownDefault(spec);
  return [
    text,
    fallback !== undefined ? `(default ${fallback})` : '',
    spec.multiple ? '(may be given more than once)' : '',
    spec.env ? `[env ${spec.env}]` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

// Exported for a dynamic import: main.ts imports it when help is asked for.
// ts-unused-exports:disable-next-line
export function commandHelp(command: Command): string {
  const options = Object.entries(command.options);
  const ofOptions = new Set(options.map(([, spec]) => spec.env).filter(Boolean));
  const others = (command.environment ?? []).filter((name) => !ofOptions.has(name));
  const lines = [`usage: ${command.usage}`, '', command.summary];
  if (options.length > 0)
    lines.push(
      '',
      'options:',
      ...columns(options.map(([name, spec]) => [optionSynopsis(name, spec), optionDescription(spec)])),
    );
  if (others.length > 0)
    lines.push('', 'environment:', ...columns(others.map((name) => [name, environmentVariables[name]])));
  if (command.examples.length > 0) lines.push('', 'examples:', ...command.examples.map((example) => `  ${example}`));
  return lines.join('\n') + '\n';
}
