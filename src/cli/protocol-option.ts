// The `--protocol VERSION` option every command that reads a schema takes: a version the package knows, or a usage
// error (exit 2) naming the versions it knows.
import { isProtocolVersion, protocolVersions, seedVersion, type ProtocolVersion } from '../schema/index.js';
import { UsageError, type OptionSpec } from './command.js';

/** The declaration of `--protocol` (its help). */
export const protocolOptionSpec = {
  type: 'string',
  value: 'VERSION',
  description: `the protocol version of messages that declare none: ${protocolVersions.join(', ')} (default ${seedVersion})`,
} as const satisfies OptionSpec;

export function protocolOption(value: string | undefined): ProtocolVersion | undefined {
  if (value === undefined) return undefined;
  if (isProtocolVersion(value)) return value;
  throw new UsageError(
    `--protocol ${value}: not a protocol version mcp-ld knows; known versions: ${protocolVersions.join(', ')}`,
  );
}
