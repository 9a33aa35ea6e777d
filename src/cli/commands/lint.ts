// `mcp-ld lint`: lints the annotated schema's annotations and shows, for each defect, whether the overlay corrects
// it. `--strict` makes an uncorrected error fail the command (exit 1), for CI.
import { lintSchema, type Defect } from '../../lint/index.js';
import { loadSchema } from '../../schema/index.js';
import { parseOptions, write, type Command } from '../command.js';

export const lintCommand: Command = {
  name: 'lint',
  summary: "lint the schema's JSON-LD annotations and show which defects the overlay corrects",
  usage: 'mcp-ld lint [--strict] [--no-overlay] [--json]',
  async run(args, io) {
    const { values } = parseOptions(args, {
      strict: { type: 'boolean' },
      'no-overlay': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const defects = lintSchema(loadSchema({ overlay: !values['no-overlay'] }));
    if (values.json) await write(io.stdout, JSON.stringify(defects, null, 2) + '\n');
    else await write(io.stdout, defects.map(formatDefect).join('') + summary(defects) + '\n');
    const failing = defects.some((defect) => defect.severity === 'error' && !defect.corrected);
    return values.strict && failing ? 1 : 0;
  },
};

/** One line: where, severity, rule, what is wrong, and whether the overlay corrects it. */
export function formatDefect(defect: Defect): string {
  const where = defect.document === 'mcp' ? defect.pointer : `json-rpc:${defect.pointer}`;
  const status = defect.corrected ? `corrected by overlay: ${defect.correction ?? '(no correction text)'}` : 'NOT corrected';
  return `${where}  ${defect.severity}  ${defect.rule}  ${defect.message}  -- ${status}\n`;
}

/** `lint: 12 defects: 9 errors (9 corrected, 0 uncorrected), 3 warnings (1 corrected, 2 uncorrected)`. */
export function summary(defects: readonly Defect[]): string {
  const count = (severity: Defect['severity']) => {
    const all = defects.filter((defect) => defect.severity === severity);
    const corrected = all.filter((defect) => defect.corrected).length;
    return `${all.length} ${severity}${all.length === 1 ? '' : 's'} (${corrected} corrected, ${all.length - corrected} uncorrected)`;
  };
  return `lint: ${defects.length} defect${defects.length === 1 ? '' : 's'}: ${count('error')}, ${count('warning')}`;
}
