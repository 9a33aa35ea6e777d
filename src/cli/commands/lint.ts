// `mcp-ld lint`: lints the annotated schema of a protocol version (default 2025-06-18: the seed) and shows, for each
// defect, whether the overlay (for another version: its annotation file) corrects it; `--all` lints every version
// and ends with one summary line per version. `--strict` makes an uncorrected error fail the command (exit 1), for CI.
import { lintSchema, type Defect } from '../../lint/index.js';
import {
  annotationCoverage,
  loadSchema,
  protocolVersions,
  seedVersion,
  type ProtocolVersion,
} from '../../schema/index.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { protocolOption, protocolOptionSpec } from '../protocol-option.js';

const options = {
  protocol: { ...protocolOptionSpec, description: 'the version linted (default 2025-06-18, the seed)' },
  all: { type: 'boolean', description: 'lint every version, ending with one summary line per version' },
  strict: { type: 'boolean', description: 'exit 1 while an error is uncorrected (for CI)' },
  'no-overlay': { type: 'boolean', description: 'lint the seed as published, without schemas/overlay.yaml' },
  json: { type: 'boolean', description: 'the defects as JSON' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const lintCommand: Command = {
  name: 'lint',
  summary:
    "lint the schema's JSON-LD annotations (one protocol version, or --all) and show which defects are corrected",
  usage: 'mcp-ld lint [--protocol VERSION | --all] [--strict] [--no-overlay] [--json]',
  options,
  examples: ['mcp-ld lint | tail -1', 'mcp-ld lint --all | tail -2'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    if (values.all && values.protocol !== undefined)
      throw new UsageError('--all lints every protocol version: give it or --protocol, not both');
    const versions: ProtocolVersion[] = values.all
      ? [...protocolVersions]
      : [protocolOption(values.protocol) ?? seedVersion];
    const results = versions.map((version) => {
      const index = loadSchema({ protocol: version, overlay: !values['no-overlay'] });
      return { version, defects: lintSchema(index), coverage: annotationCoverage(index) };
    });
    if (values.json) {
      const body = values.all
        ? Object.fromEntries(results.map((result) => [result.version, result.defects]))
        : results[0]!.defects;
      await write(io.stdout, JSON.stringify(body, null, 2) + '\n');
    } else if (!values.all) {
      const { defects } = results[0]!;
      await write(io.stdout, defects.map(formatDefect).join('') + summary(defects) + '\n');
    } else {
      for (const { version, defects } of results)
        await write(io.stdout, defects.map((defect) => `${version} ${formatDefect(defect)}`).join(''));
      for (const { version, defects, coverage } of results) {
        const excused = coverage.excused.length > 0 ? `, ${coverage.excused.length} excused` : '';
        await write(
          io.stdout,
          `${version} ${summary(defects)}; ${coverage.annotated}/${coverage.reached} message properties annotated${excused}\n`,
        );
      }
    }
    const failing = results.some(({ defects }) =>
      defects.some((defect) => defect.severity === 'error' && !defect.corrected),
    );
    return values.strict && failing ? 1 : 0;
  },
};

/** One line: where, severity, rule, what is wrong, and whether the overlay corrects it. */
function formatDefect(defect: Defect): string {
  const where = defect.document === 'mcp' ? defect.pointer : `json-rpc:${defect.pointer}`;
  const status = defect.corrected
    ? `corrected by overlay: ${defect.correction ?? '(no correction text)'}`
    : 'NOT corrected';
  return `${where}  ${defect.severity}  ${defect.rule}  ${defect.message}  -- ${status}\n`;
}

/** `lint: 12 defects: 9 errors (9 corrected, 0 uncorrected), 3 warnings (1 corrected, 2 uncorrected)`. */
function summary(defects: readonly Defect[]): string {
  const count = (severity: Defect['severity']) => {
    const all = defects.filter((defect) => defect.severity === severity);
    const corrected = all.filter((defect) => defect.corrected).length;
    return `${all.length} ${severity}${all.length === 1 ? '' : 's'} (${corrected} corrected, ${all.length - corrected} uncorrected)`;
  };
  return `lint: ${defects.length} defect${defects.length === 1 ? '' : 's'}: ${count('error')}, ${count('warning')}`;
}
