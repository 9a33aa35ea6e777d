// The effective annotated schema of every protocol version: for the seed's version the seed with its overlay; for
// each other version its official schema (schemas/official/<version>/schema.json, with the official extensions its
// messages may use) in the seed's shape, annotated
// with what its neighbour nearer the seed says of the same definitions and properties, then its own annotation file.
import path from 'node:path';
import { getAtPointer, isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { schemasDir } from '../core/paths.js';
import { readJsonDocument, type SeedDocuments } from './documents.js';
import { applyOverlay } from './overlay.js';
import { normalizeOfficialSchema } from './normalize.js';
import { carryAnnotations, type CarryReport } from './carry-over.js';
import { withExtensions } from './extensions.js';
import { loadVersionAnnotations, type VersionAnnotations } from './version-annotations.js';
import { carriedFrom, type ProtocolVersion } from './versions.js';

const officialDir = 'official';

export function officialSchemaFile(version: ProtocolVersion): string {
  return path.join(officialDir, version, 'schema.json');
}

export interface VersionDocuments {
  version: ProtocolVersion;
  /** The documents after the version's annotation file. */
  effective: SeedDocuments;
  /**
   * The documents as carried, before the annotation file (what the lint compares against, as the seed for the overlay).
   */
  carried: SeedDocuments;
  annotations: VersionAnnotations;
  /**
   * For each request, the result definitions its official result envelope allows (2026-07-28: `InputRequiredResult`
   * too).
   */
  resultAlternatives: Record<string, string[]>;
  report: CarryReport;
}

export function readOfficialSchema(version: ProtocolVersion, dir: string = schemasDir): JsonObject {
  return readJsonDocument(officialSchemaFile(version), dir);
}

/**
 * The documents of `version`, built from `earlier`: the effective documents of `carriedFrom(version)`. The JSON-RPC
 * schema is the same for every version.
 */
export function buildVersionDocuments(
  version: ProtocolVersion,
  earlier: SeedDocuments,
  dir: string = schemasDir,
): VersionDocuments {
  if (carriedFrom(version) === undefined)
    throw new Error(`${version} is the seed's version: load it with loadSchema()`);
  const normalized = normalizeOfficialSchema(withExtensions(readOfficialSchema(version, dir), version, dir));
  const annotations = loadVersionAnnotations(version, dir);
  const { document, report } = carryAnnotations(earlier.mcp, normalized.document, {
    ...annotations.describedAs,
    ...annotations.renamed,
  });
  const carried: SeedDocuments = { mcp: document, 'json-rpc': earlier['json-rpc'] };
  for (const pointer of annotations.annotated) {
    if (!isJsonObject(getAtPointer(document, pointer))) {
      throw McpLdError.of('schema.annotations-invalid', {
        detail: `annotations/${version}.yaml annotates ${pointer}, which the official ${version} schema does not have`,
        pointer,
      });
    }
  }
  const effective = applyOverlay(carried, annotations);
  return { version, effective, carried, annotations, resultAlternatives: normalized.resultAlternatives, report };
}
