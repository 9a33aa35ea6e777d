// One version's annotation file (schemas/annotations/<version>.yaml): what the annotations carried from the
// neighbouring version cannot give. `renamed` says which definition a renamed one was, `describedAs` which earlier
// definition a new one describes the same object as (each of a union's variants), `terms` names the classes of new
// definitions, `annotate` gives new properties
// their IRI and datatype, `corrections` (the overlay's format, each with its `why`) changes what was carried, and
// `unannotated` excuses a property from the coverage check, saying why. Read into overlay corrections, in order.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isJsonObject, joinPointer, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { schemasDir } from '../core/paths.js';
import { readYamlDocument } from './documents.js';
import { parseOverlay, type Correction, type Overlay } from './overlay.js';

const annotationsDir = 'annotations';

export interface Excuse {
  /** JSON pointer of the property schema in the version's document. */
  at: string;
  why: string;
}

export interface VersionAnnotations extends Overlay {
  /** Definitions the version names differently from its neighbour: later name → the neighbour's name. */
  renamed: Record<string, string>;
  /** New definitions that describe what a neighbour's definition described: new name → the neighbour's name. */
  describedAs: Record<string, string>;
  /** Property schemas `annotate` names: each must exist in the version's schema (a misspelt path is an error). */
  annotated: string[];
  unannotated: Excuse[];
}

export function annotationFile(version: string): string {
  return path.join(annotationsDir, `${version}.yaml`);
}

function fileError(version: string, detail: string): McpLdError {
  return McpLdError.of('schema.annotations-invalid', { detail: `${annotationFile(version)}: ${detail}` });
}

/**
 * `Definition/key/key`: the pointer of a property schema, a `/properties/` between each name (`~1` stands for a `/`
 * inside a key, as in JSON pointers: `RequestMetaObject/io.modelcontextprotocol~1clientInfo`).
 */
export function propertyPointer(path: string): string {
  const [definition, ...keys] = path.split('/');
  return joinPointer(
    '/definitions',
    definition!,
    ...keys.flatMap((key) => ['properties', key.replace(/~1/g, '/').replace(/~0/g, '~')]),
  );
}

/** `IRI [DATATYPE [CONTAINER]]`, as `annotate` writes one property's annotation. */
function annotationOf(version: string, path: string, value: unknown): JsonObject {
  if (typeof value !== 'string' || value.trim() === '')
    throw fileError(version, `annotate ${path}: give "IRI [DATATYPE [CONTAINER]]"`);
  const [id, type, container, ...rest] = value.trim().split(/\s+/);
  if (rest.length > 0)
    throw fileError(version, `annotate ${path}: "${value}" has more than an IRI, a datatype and a container`);
  const annotation: JsonObject = { 'x-jsonld-id': id! };
  if (type !== undefined) annotation['x-jsonld-type'] = type;
  if (container !== undefined) annotation['x-jsonld-container'] = container;
  return annotation;
}

export function parseVersionAnnotations(version: string, document: JsonObject): VersionAnnotations {
  const corrections: Correction[] = [];
  const renamed = document['renamed'] ?? {};
  if (!isJsonObject(renamed) || !Object.values(renamed).every((name) => typeof name === 'string')) {
    throw fileError(
      version,
      '`renamed` must map a definition name of this version to its name in the version its annotations come from',
    );
  }
  const describedAs = document['describedAs'] ?? {};
  if (!isJsonObject(describedAs) || !Object.values(describedAs).every((name) => typeof name === 'string')) {
    throw fileError(
      version,
      '`describedAs` must map a new definition name to the definition of the version its annotations come from that describes the same object',
    );
  }
  const terms = document['terms'] ?? {};
  if (!isJsonObject(terms)) throw fileError(version, '`terms` must map definition names to class IRIs');
  for (const [name, iri] of Object.entries(terms)) {
    if (typeof iri !== 'string') throw fileError(version, `terms ${name}: give the class IRI`);
    corrections.push({
      at: joinPointer('/x-jsonld-extra-terms', name),
      in: 'mcp',
      why: `the class of ${name}, new in ${version}`,
      set: { 'x-jsonld-id': iri, 'x-jsonld-type': '@id' },
    });
  }
  const annotate = document['annotate'] ?? {};
  if (!isJsonObject(annotate)) throw fileError(version, '`annotate` must map property paths to annotations');
  const annotated: string[] = [];
  for (const [path, value] of Object.entries(annotate)) {
    annotated.push(propertyPointer(path));
    corrections.push({
      at: propertyPointer(path),
      in: 'mcp',
      why: `${path} is new in ${version}`,
      set: annotationOf(version, path, value),
    });
  }
  corrections.push(...parseOverlay({ corrections: document['corrections'] ?? [] }).corrections);
  const excused = document['unannotated'] ?? {};
  if (!isJsonObject(excused))
    throw fileError(version, '`unannotated` must map property paths to the reason each is left without an annotation');
  const unannotated = Object.entries(excused).map(([path, why]): Excuse => {
    if (typeof why !== 'string' || why.trim() === '')
      throw fileError(version, `unannotated ${path}: say why it is left out`);
    return { at: propertyPointer(path), why: why.trim() };
  });
  return {
    corrections,
    renamed: renamed as Record<string, string>,
    describedAs: describedAs as Record<string, string>,
    annotated,
    unannotated,
  };
}

/** The version's annotation file; none (nothing to add) when the version has no file. */
export function loadVersionAnnotations(version: string, dir: string = schemasDir): VersionAnnotations {
  if (!existsSync(path.join(dir, annotationFile(version))))
    return { corrections: [], renamed: {}, describedAs: {}, annotated: [], unannotated: [] };
  return parseVersionAnnotations(version, readYamlDocument(annotationFile(version), dir));
}
