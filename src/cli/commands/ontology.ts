// `mcp-ld ontology`: prints the OWL ontology (or, with --shapes, the SHACL shapes) generated from the effective
// schema, in Turtle, RDF/XML, JSON-LD or N-Triples; `--write` writes every file into ontology/ (or --out DIR), one
// line per file; `--check` writes nothing and exits 1 naming every file that differs (for CI).
import path from 'node:path';
import { ontologyDir } from '../../core/paths.js';
import { loadSchema } from '../../schema/index.js';
import { checkOntology, formats, generateOntology, serializeDocument, writeOntology, type OntologyFormat } from '../../ontology/index.js';
import { parseOptions, UsageError, write, type Command } from '../command.js';
import { reportDrift, shown } from '../generated-files.js';

export const ontologyCommand: Command = {
  name: 'ontology',
  summary: 'print the OWL ontology or the SHACL shapes (--write: ontology/, --check: verify it)',
  usage: [
    'mcp-ld ontology [--format turtle|rdfxml|jsonld|ntriples] [--shapes]',
    '       mcp-ld ontology --write [--out DIR]',
    '       mcp-ld ontology --check [--out DIR]',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseOptions(args, {
      format: { type: 'string' },
      shapes: { type: 'boolean' },
      write: { type: 'boolean' },
      out: { type: 'string' },
      check: { type: 'boolean' },
    });
    const format = (values.format ?? 'turtle') as OntologyFormat;
    if (!(format in formats)) throw new UsageError(`unknown format "${values.format}" (turtle, rdfxml, jsonld or ntriples)`);
    const toFiles = values.write === true || values.out !== undefined;
    if (values.check && toFiles && values.write) throw new UsageError('--check and --write exclude each other');
    if ((values.check || toFiles) && (values.format !== undefined || values.shapes)) {
      throw new UsageError('--format and --shapes are for printing; --write and --check handle every file');
    }
    const index = loadSchema();
    const dir = path.resolve(values.out ?? ontologyDir);
    if (values.check) return reportDrift(io.stderr, 'ontology', dir, await checkOntology(dir, index), `mcp-ld ontology --write${values.out ? ` --out ${values.out}` : ''}`);
    if (toFiles) {
      for (const file of await writeOntology(dir, index)) await write(io.stdout, `${shown(file)}\n`);
      return 0;
    }
    const documents = generateOntology(index);
    await write(io.stdout, await serializeDocument(documents, values.shapes ? 'shapes' : 'ontology', format));
    return 0;
  },
};
