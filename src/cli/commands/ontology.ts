// `mcp-ld ontology`: prints the OWL ontology of every protocol version (or, with --shapes, the SHACL shapes of one
// version: --protocol, 2025-06-18 by default) in Turtle, RDF/XML, JSON-LD or N-Triples; `--write` writes every file
// into ontology/ (or --out DIR), one line per file; `--check` writes nothing and exits 1 naming every file that
// differs (for CI).
import path from 'node:path';
import { ontologyDir } from '../../core/paths.js';
import { isMcpLdError } from '../../core/problem.js';
import { loadSchema, parseProtocolVersion, type ProtocolVersion } from '../../schema/index.js';
import {
  checkOntology,
  formats,
  generateOntologyGraph,
  generateShapes,
  serialize,
  prefixes,
  writeOntology,
  type OntologyFormat,
} from '../../ontology/index.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { reportDrift, shown } from '../generated-files.js';

/** The version `--protocol` names; an unknown one is a usage error (exit 2) naming the versions mcp-ld knows. */
function protocolOption(text: string): ProtocolVersion {
  try {
    return parseProtocolVersion(text);
  } catch (error) {
    if (isMcpLdError(error)) throw new UsageError(`--protocol: ${error.detail}`);
    throw error;
  }
}

const options = {
  format: {
    type: 'string',
    value: 'FORMAT',
    description: `the serialization printed: ${Object.keys(formats).join(', ')} (default turtle)`,
  },
  shapes: { type: 'boolean', description: 'print the SHACL shapes of one version instead of the ontology' },
  protocol: {
    type: 'string',
    value: 'VERSION',
    description: 'the version of the shapes (default 2025-06-18): the ontology covers every version',
  },
  write: { type: 'boolean', description: "write every file into the package's ontology/ (or --out DIR)" },
  out: { type: 'string', value: 'DIR', description: 'where --write writes (or --check compares)' },
  check: { type: 'boolean', description: 'write nothing; exit 1 naming every file that differs' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const ontologyCommand: Command = {
  name: 'ontology',
  summary: 'print the OWL ontology or the SHACL shapes of a protocol version (--write: ontology/, --check: verify it)',
  usage: [
    'mcp-ld ontology [--format turtle|rdfxml|jsonld|ntriples] [--shapes [--protocol VERSION]]',
    '       mcp-ld ontology --write [--out DIR]',
    '       mcp-ld ontology --check [--out DIR]',
  ].join('\n'),
  options,
  examples: [
    'mcp-ld ontology --format rdfxml > mcp-ld.rdf',
    'mcp-ld ontology --shapes --protocol 2026-07-28 > shapes-2026-07-28.ttl',
  ],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const format = (values.format ?? 'turtle') as OntologyFormat;
    if (!(format in formats))
      throw new UsageError(`unknown format "${values.format}" (turtle, rdfxml, jsonld or ntriples)`);
    const toFiles = values.write === true || values.out !== undefined;
    if (values.check && toFiles && values.write) throw new UsageError('--check and --write exclude each other');
    if ((values.check || toFiles) && (values.format !== undefined || values.shapes || values.protocol !== undefined)) {
      throw new UsageError('--format, --shapes and --protocol are for printing; --write and --check handle every file');
    }
    const protocol = values.protocol === undefined ? undefined : protocolOption(values.protocol);
    if (protocol !== undefined && !values.shapes)
      throw new UsageError(
        '--protocol selects the version of the shapes (--shapes): the ontology covers every version',
      );
    const dir = path.resolve(values.out ?? ontologyDir);
    if (values.check)
      return reportDrift(
        io.stderr,
        'ontology',
        dir,
        await checkOntology(dir),
        `mcp-ld ontology --write${values.out ? ` --out ${values.out}` : ''}`,
      );
    if (toFiles) {
      for (const file of await writeOntology(dir)) await write(io.stdout, `${shown(file)}\n`);
      return 0;
    }
    const quads = values.shapes
      ? generateShapes(loadSchema(protocol === undefined ? {} : { protocol }))
      : generateOntologyGraph().quads;
    await write(io.stdout, await serialize(quads, format, prefixes));
    return 0;
  },
};
