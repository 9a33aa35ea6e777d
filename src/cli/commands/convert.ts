// `mcp-ld convert`: lifts MCP messages (one, a batch, JSONL of messages or capture records) to RDF on stdout.
// Bad lines are reported on stderr with their line number and skipped; the exit status says whether any failed.
import { protocolOptionSpec } from '../protocol-option.js';
import { baseOptionSpec, checkBaseOption, commandLifter } from '../lifting-options.js';
import { derivedSessionId } from '../../lift/session-id.js';
import { parseInput } from '../../lift/input.js';
import { Conversion, convertText, summaryLine, type ConversionSummary } from '../../lift/convert.js';
import { isRdfFormat, rdfFormats } from '../../rdf/formats.js';
import { ChunkedOutput } from '../chunked-output.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { readInputBytes, refuseWrongKind } from '../read-input.js';
import { conversionFailures, reportFailedLines } from '../failed-lines.js';

const options = {
  format: {
    type: 'string',
    default: 'nquads',
    value: 'FORMAT',
    description: `the RDF written: ${rdfFormats.join(', ')}`,
  },
  session: {
    type: 'string',
    value: 'ID',
    description:
      'the session of messages that are not capture records (default: derived from the input, so the same input gives the same quads)',
  },
  base: baseOptionSpec,
  protocol: protocolOptionSpec,
  engine: {
    type: 'string',
    default: 'fast',
    value: 'ENGINE',
    description:
      'fast (compiled from the schema) or reference (jsonld.js with the generated contexts: the same graph, slower)',
  },
  strict: { type: 'boolean', default: false, description: 'stop at the first bad line or invalid message, naming it' },
  quiet: { type: 'boolean', default: false, description: 'no summary line on stderr' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const convertCommand: Command = {
  name: 'convert',
  summary: 'lift MCP messages (JSON, batch, JSONL, capture records) to RDF',
  usage:
    'mcp-ld convert [FILE|-] [--format nquads|trig|turtle|jsonld] [--session ID] [--base IRI] [--protocol VERSION] [--engine fast|reference] [--strict] [--quiet]',
  options,
  examples: [
    `echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}' | mcp-ld convert --format turtle`,
    'mcp-ld convert capture.jsonl > capture.nq',
  ],
  async run(args, io) {
    const { values, positionals } = parseOptions(args, options, true);
    if (positionals.length > 1) throw new UsageError('convert takes one input file (or - for stdin)');
    if (!isRdfFormat(values.format)) throw new UsageError(`--format must be one of ${rdfFormats.join(', ')}`);
    if (values.engine !== 'fast' && values.engine !== 'reference')
      throw new UsageError('--engine must be fast or reference');
    checkBaseOption(values.base);

    const text = await readInputBytes(positionals[0], io.stdin);
    refuseWrongKind(positionals[0], text, 'convert');
    // Plain messages without a session: a session id derived from the input, so the same input gives the same graph.
    const session = values.session ?? (() => derivedSessionId(text));
    const lifter = commandLifter(values, session);
    let summary: ConversionSummary;
    if (values.format === 'nquads' && values.engine === 'fast') {
      // N-Quads stream out message by message, as text straight from the lifter.
      const conversion = new Conversion({ strict: values.strict });
      // process.stdout has written a chunk when its callback runs: its buffer can take the next one.
      const output = new ChunkedOutput(io.stdout, { reuseBuffer: io.stdout === process.stdout });
      await conversion.run(parseInput(text), {
        lift: (record) => lifter.liftToNQuadsParts(record),
        take: (lifted) => output.pushParts(lifted.nquadsParts),
      });
      await output.flush();
      summary = conversion.summary;
    } else {
      // The other formats need the whole graph (prefixes, compaction); the reference engine gives quads.
      const converted = await convertText(lifter, text, { strict: values.strict, engine: values.engine });
      const { serialize } = await import('../../rdf/serialize.js');
      await write(io.stdout, await serialize(converted.quads, values.format));
      summary = converted.summary;
    }
    await reportFailedLines(io.stderr, conversionFailures(summary.failed));
    if (!values.quiet) await write(io.stderr, `mcp-ld convert: ${summaryLine(summary)}\n`);
    return summary.failed.length > 0 ? 1 : 0;
  },
};
