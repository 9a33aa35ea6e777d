// `mcp-ld lower`: reads N-Quads or TriG of lifted messages and writes the messages back as JSONL capture records
// (seq, ts, dir, server, session, msg), in capture order. A bad N-Quads line is reported with its number and skipped.
import { Parser, type Quad } from 'n3';
import { loadSchema } from '../../schema/index.js';
import { MessagePlans } from '../../lift/message-plans.js';
import { Lowerer } from '../../lower/lower.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { readInput, refuseWrongKind } from '../read-input.js';
import { reportFailedLines } from '../failed-lines.js';

interface ParseProblem {
  line: number;
  detail: string;
}

/** N-Quads line by line, so one bad line costs only itself. */
function parseNQuads(text: string, problems: ParseProblem[]): Quad[] {
  const quads: Quad[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    try {
      quads.push(...new Parser({ format: 'N-Quads' }).parse(line));
    } catch (error) {
      problems.push({ line: i + 1, detail: (error as Error).message.replace(/ on line \d+\.?$/, '') });
    }
  });
  return quads;
}

function parseTriG(text: string, problems: ParseProblem[]): Quad[] {
  try {
    return new Parser({ format: 'TriG' }).parse(text);
  } catch (error) {
    const message = (error as Error).message;
    problems.push({ line: Number(/line (\d+)/.exec(message)?.[1] ?? 0), detail: message });
    return [];
  }
}

const options = {
  format: {
    type: 'string',
    value: 'FORMAT',
    description: 'nquads or trig (default: trig for a .trig file, else nquads)',
  },
  strict: { type: 'boolean', default: false, description: 'stop at the first bad line, naming it' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const lowerCommand: Command = {
  name: 'lower',
  summary: 'turn lifted RDF (N-Quads or TriG) back into the MCP messages, as JSONL capture records',
  usage: 'mcp-ld lower [FILE|-] [--format nquads|trig] [--strict]',
  options,
  examples: ['mcp-ld convert capture.jsonl | mcp-ld lower > again.jsonl'],
  async run(args, io) {
    const { values, positionals } = parseOptions(args, options, true);
    if (positionals.length > 1) throw new UsageError('lower takes one input file (or - for stdin)');
    const file = positionals[0];
    const format = values.format ?? (file?.endsWith('.trig') ? 'trig' : 'nquads');
    if (format !== 'nquads' && format !== 'trig') throw new UsageError('--format must be nquads or trig');
    const text = await readInput(file, io.stdin);
    refuseWrongKind(file, text, 'lower', format);
    const problems: ParseProblem[] = [];
    const quads = format === 'trig' ? parseTriG(text, problems) : parseNQuads(text, problems);
    if (values.strict && problems.length > 0) {
      await write(io.stderr, `line ${problems[0]!.line}: ${problems[0]!.detail}\n`);
      return 1;
    }
    const records = new Lowerer(new MessagePlans(loadSchema())).lower(quads);
    await write(
      io.stdout,
      records.map((record) => JSON.stringify(record)).join('\n') + (records.length > 0 ? '\n' : ''),
    );
    await reportFailedLines(
      io.stderr,
      problems.map((problem) => ({ text: `line ${problem.line}: ${problem.detail}`, malformed: true })),
    );
    return problems.length > 0 ? 1 : 0;
  },
};
