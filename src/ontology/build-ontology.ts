// Generates the ontology (every protocol version's schema) and the shapes (one version's) from the schema indexes,
// serializes them into the files of ontology/ — mcp-ld.{ttl,rdf,jsonld,nt}, the 2025-06-18 (seed) shapes
// mcp-ld-shapes.{ttl,rdf,jsonld,nt}, and every other version's shapes <version>/mcp-ld-shapes.ttl — writes them into a
// directory, and compares a directory with what would be generated (drift check). Other files there (README.md) are
// left alone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Parser, type Quad } from 'n3';
import { schemasDir } from '../core/paths.js';
import { loadSchema, protocolVersions, seedVersion, type SchemaIndex } from '../schema/index.js';
import { ontologyModel } from './definition-model.js';
import { buildOntology, type GeneratedOntology } from './ontology-graph.js';
import { prefixes, projectVersion } from './namespaces.js';
import { formats, serialize, type OntologyFormat } from './serialize.js';
import { buildShapes } from './shapes-graph.js';

export type OntologyDocument = 'ontology' | 'shapes';

export const referenceOntologyFiles = ['ogc-mcp-ontology.ttl', 'ogc-json-rpc-ontology.ttl'].map((file) =>
  path.join(schemasDir, 'reference', file),
);

/** The OGC hand-written ontologies (bundled copies, never fetched), parsed. */
export function loadReferenceOntologies(files: readonly string[] = referenceOntologyFiles): Quad[] {
  return files.flatMap((file) => new Parser({ baseIRI: 'file:///reference/' }).parse(readFileSync(file, 'utf8')));
}

interface GenerateOptions {
  /** mcp-ld's version; package.json's by default. */
  version?: string;
  /** The OGC ontologies' quads; the bundled copies by default. */
  reference?: readonly Quad[];
  /** The indexes of the versions the ontology covers, oldest first; every packaged version's by default. */
  versions?: readonly SchemaIndex[];
}

export interface GeneratedDocuments {
  ontology: GeneratedOntology;
  shapes: Quad[];
}

/** The packaged schema index of every protocol version mcp-ld knows, oldest first. */
export function versionIndexes(): SchemaIndex[] {
  return protocolVersions.map((protocol) => loadSchema({ protocol }));
}

/** The ontology of every version in `versions` (with its alignment), as quads. */
export function generateOntologyGraph(options: GenerateOptions = {}): GeneratedOntology {
  const version = options.version ?? projectVersion();
  const versions = [...(options.versions ?? versionIndexes())].sort((a, b) =>
    a.version < b.version ? -1 : a.version > b.version ? 1 : 0,
  );
  return buildOntology(
    versions.map((index) => ({ version: index.version, model: ontologyModel(index) })),
    { version, reference: options.reference ?? loadReferenceOntologies() },
  );
}

/** The shapes of the version `index` describes (the seed's, 2025-06-18, by default), as quads. */
export function generateShapes(index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): Quad[] {
  return buildShapes(ontologyModel(index), { version: options.version ?? projectVersion(), protocol: index.version });
}

/**
 * The ontology (every version in `options.versions`, with its alignment) and the shapes of `index`'s version, as quads.
 */
export function generateOntology(index: SchemaIndex = loadSchema(), options: GenerateOptions = {}): GeneratedDocuments {
  return { ontology: generateOntologyGraph(options), shapes: generateShapes(index, options) };
}

export function documentFile(document: OntologyDocument, format: OntologyFormat): string {
  return `${document === 'ontology' ? 'mcp-ld' : 'mcp-ld-shapes'}.${formats[format].extension}`;
}

export function serializeDocument(
  documents: GeneratedDocuments,
  document: OntologyDocument,
  format: OntologyFormat,
): Promise<string> {
  return serialize(document === 'ontology' ? documents.ontology.quads : documents.shapes, format, prefixes);
}

interface OntologyFile {
  /** File name inside the ontology directory. */
  path: string;
  text: string;
}

/**
 * The files of the shapes of versions other than the seed's: Turtle only (every format: `ontology --shapes
 * --protocol`).
 */
export function versionShapesFile(protocol: string): string {
  return `${protocol}/${documentFile('shapes', 'turtle')}`;
}

/**
 * Every generated file, sorted by path: the ontology of every version and the seed's shapes in four serializations,
 * and each other version's shapes in Turtle (`2026-07-28/mcp-ld-shapes.ttl`).
 */
export async function buildOntologyFiles(options: GenerateOptions = {}): Promise<OntologyFile[]> {
  const versions = options.versions ?? versionIndexes();
  const seed = versions.find((index) => index.version === seedVersion) ?? loadSchema();
  const documents: GeneratedDocuments = {
    ontology: generateOntologyGraph({ ...options, versions }),
    shapes: generateShapes(seed, options),
  };
  const files: OntologyFile[] = [];
  for (const document of ['ontology', 'shapes'] as OntologyDocument[]) {
    for (const format of Object.keys(formats) as OntologyFormat[]) {
      files.push({ path: documentFile(document, format), text: await serializeDocument(documents, document, format) });
    }
  }
  for (const index of versions) {
    if (index.version === seed.version) continue;
    files.push({
      path: versionShapesFile(index.version),
      text: await serialize(generateShapes(index, options), 'turtle', prefixes),
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Writes every generated file into `dir` (created if needed); returns their absolute paths. */
export async function writeOntology(dir: string, options: GenerateOptions = {}): Promise<string[]> {
  const written: string[] = [];
  for (const file of await buildOntologyFiles(options)) {
    const target = path.join(dir, ...file.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
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
export async function checkOntology(dir: string, options: GenerateOptions = {}): Promise<OntologyDrift[]> {
  const files = await buildOntologyFiles(options);
  const drift: OntologyDrift[] = [];
  for (const file of files) {
    const target = path.join(dir, ...file.path.split('/'));
    if (!existsSync(target)) drift.push({ path: file.path, problem: 'missing' });
    else if (readFileSync(target, 'utf8') !== file.text) drift.push({ path: file.path, problem: 'differs' });
  }
  return drift.sort((a, b) => (a.path < b.path ? -1 : 1));
}
