// What `convert` and `ingest` share to lift: the `--base IRI` option (an absolute IRI, or a usage error) and the
// lifter made of it, `--protocol` and the session of plain messages.
import { isAbsoluteIri } from '../core/iri.js';
import { Lifter, type LiftOptions } from '../lift/lifter.js';
import { loadSchema, seedVersion } from '../schema/index.js';
import { UsageError, type OptionSpec } from './command.js';
import { protocolOption } from './protocol-option.js';

/** The declaration of `--base` (its help). */
export const baseOptionSpec = {
  type: 'string',
  value: 'IRI',
  description: 'the base of the IRIs minted (default urn:mcp-ld:)',
} as const satisfies OptionSpec;

/** Refuses a `--base` that is not an absolute IRI (exit 2), before any input is read. */
export function checkBaseOption(base: string | undefined): void {
  if (base !== undefined && !isAbsoluteIri(base)) throw new UsageError('--base must be an absolute IRI');
}

/** The lifter of `--protocol` (default the seed version) and `--base`, plain messages in `defaultSession`. */
export function commandLifter(
  values: { base?: string | undefined; protocol?: string | undefined },
  defaultSession: NonNullable<LiftOptions['defaultSession']>,
): Lifter {
  return new Lifter(loadSchema({ protocol: protocolOption(values.protocol) ?? seedVersion }), {
    defaultSession,
    ...(values.base ? { base: values.base } : {}),
  });
}
