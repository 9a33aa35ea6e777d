// Generates the ontology and the shapes from the schema index, serializes them into the files of ontology/
// (mcp-ld.{ttl,rdf,jsonld,nt} and mcp-ld-shapes.{ttl,rdf,jsonld,nt}), writes them into a directory, and compares a
// directory with what would be generated (drift check). Other files there (README.md) are left alone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Parser, type Quad } from 'n3';
import { schemasDir } from '../core/paths.js';
import { loadSchema, type SchemaIndex } from '../schema/index.js';
import { schemaModel } from './definition-model.js';
import { buildOntology, type GeneratedOntology } from './ontology-graph.js';
import { prefixes, projectVersion } from './namespaces.js';
import { formats, serialize, type OntologyFormat } from './serialize.js';
import { buildShapes } from './shapes-graph.js';

export type OntologyDocument = 'ontology' | 'shapes';

export const referenceOntologyFiles = ['ogc-mcp-ontology.ttl', 'ogc-json-rpc-ontology.ttl'].map((file) => path.join(schemasDir, 'reference', file));

/** The OGC hand-written ontologies (bundled copies, never fetched), parsed. */
export function loadReferenceOntologies(files: readonly string[] = referenceOntologyFiles): Quad[] {
  return files.flatMap((file) => new Parser({ baseIRI: 'file:///reference/' }).parse(readFileSync(file, 'utf8')));
}

export interface GenerateOptions {
  /** mcp-ld's version; package.json's by default. */
  version?: string;
  /** The OGC ontologies' quads; the bundled copies by default. */
  reference?: readonly Quad[];
}

export interface GeneratedDocuments {
  ontology: GeneratedOntology;
  shapes: Quad[];
}

/** The ontology (with its alignment) and the shapes, as quads. */
export function generateOntology(index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): GeneratedDocuments {
  const version = options.version ?? projectVersion();
  const model = schemaModel(index);
  const ontology = buildOntology(model, { version, reference: options.reference ?? loadReferenceOntologies() });
  return { ontology, shapes: buildShapes(model, { version }) };
}

export function documentFile(document: OntologyDocument, format: OntologyFormat): string {
  return `${document === 'ontology' ? 'mcp-ld' : 'mcp-ld-shapes'}.${formats[format].extension}`;
}

export function serializeDocument(documents: GeneratedDocuments, document: OntologyDocument, format: OntologyFormat): Promise<string> {
  return serialize(document === 'ontology' ? documents.ontology.quads : documents.shapes, format, prefixes);
}

export interface OntologyFile {
  /** File name inside the ontology directory. */
  path: string;
  text: string;
}

/** Every generated file, sorted by name. */
export async function buildOntologyFiles(index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): Promise<OntologyFile[]> {
  const documents = generateOntology(index, options);
  const files: OntologyFile[] = [];
  for (const document of ['ontology', 'shapes'] as OntologyDocument[]) {
    for (const format of Object.keys(formats) as OntologyFormat[]) {
      files.push({ path: documentFile(document, format), text: await serializeDocument(documents, document, format) });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Writes every generated file into `dir` (created if needed); returns their absolute paths. */
export async function writeOntology(dir: string, index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const file of await buildOntologyFiles(index, options)) {
    const target = path.join(dir, file.path);
    writeFileSync(target, file.text);
    written.push(target);
  }
  return written;
}

export interface OntologyDrift {
  path: string;
  problem: 'differs' | 'missing';
}

/** How `dir` differs from what would be generated (the generated files only: README.md and others are left alone). */
export async function checkOntology(dir: string, index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): Promise<OntologyDrift[]> {
  const files = await buildOntologyFiles(index, options);
  const drift: OntologyDrift[] = [];
  for (const file of files) {
    const target = path.join(dir, file.path);
    if (!existsSync(target)) drift.push({ path: file.path, problem: 'missing' });
    else if (readFileSync(target, 'utf8') !== file.text) drift.push({ path: file.path, problem: 'differs' });
  }
  return drift.sort((a, b) => (a.path < b.path ? -1 : 1));
}
