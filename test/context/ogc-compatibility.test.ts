import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { loadSchema } from '../../src/schema/index.js';
import { buildContexts } from '../../src/context/index.js';

const referenceFile = path.join(packageRoot, 'test', 'fixtures', 'reference', 'ogc-bblocks-mcp-context.jsonld');

/** Top-level term → expanded IRI of a context document; prefixes are the string entries ending in # or /. */
function topLevelTerms(document: JsonObject): Map<string, string> {
  const context = document['@context'] as JsonObject;
  const prefixes = new Map<string, string>();
  for (const [key, value] of Object.entries(context))
    if (typeof value === 'string' && /[#/]$/.test(value)) prefixes.set(key, value);
  const expand = (iri: string) => {
    const colon = iri.indexOf(':');
    const prefix = prefixes.get(iri.slice(0, colon));
    return colon > 0 && prefix !== undefined ? prefix + iri.slice(colon + 1) : iri;
  };
  const terms = new Map<string, string>();
  for (const [key, value] of Object.entries(context)) {
    if (key.startsWith('@') || prefixes.has(key)) continue;
    const id = typeof value === 'string' ? value : isJsonObject(value) ? value['@id'] : undefined;
    if (typeof id === 'string') terms.set(key, expand(id));
  }
  return terms;
}

/** Every (key, IRI) the effective schemas annotate: property schemas anywhere, and extra terms. */
function schemaAnnotations(): Map<string, Set<string>> {
  const index = loadSchema();
  const prefixes = index.prefixes;
  const expand = (iri: string) => {
    const colon = iri.indexOf(':');
    const prefix = colon > 0 ? iri.slice(0, colon) : '';
    return prefix in prefixes && !iri.slice(colon + 1).startsWith('//') ? prefixes[prefix] + iri.slice(colon + 1) : iri;
  };
  const found = new Map<string, Set<string>>();
  const add = (key: string, iri: string) => found.set(key, (found.get(key) ?? new Set()).add(expand(iri)));
  const visit = (node: JsonValue) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isJsonObject(node)) return;
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      for (const [key, schema] of Object.entries(properties))
        if (isJsonObject(schema) && typeof schema['x-jsonld-id'] === 'string') add(key, schema['x-jsonld-id']);
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const document of [index.documents.mcp, index.documents['json-rpc']]) {
    visit(document);
    const extra = document['x-jsonld-extra-terms'];
    if (isJsonObject(extra)) {
      for (const [key, value] of Object.entries(extra)) {
        const id = typeof value === 'string' ? value : isJsonObject(value) ? value['x-jsonld-id'] : undefined;
        if (typeof id === 'string') add(key, id);
      }
    }
  }
  return found;
}

describe('context: the merged context and the OGC reference', () => {
  it('map every OGC term to the same IRI wherever the effective schema gives that key that IRI', () => {
    const reference = topLevelTerms(JSON.parse(readFileSync(referenceFile, 'utf8')) as JsonObject);
    const merged = topLevelTerms(buildContexts(loadSchema()).find((c) => c.path === 'mcp.jsonld')!.document);
    const annotations = schemaAnnotations();
    let applicable = 0;
    const incompatible: string[] = [];
    const notApplicable: string[] = [];
    for (const [key, iri] of reference) {
      if (!annotations.get(key)?.has(iri)) {
        notApplicable.push(key);
        continue;
      }
      applicable++;
      const ours = merged.get(key);
      if (ours !== iri)
        incompatible.push(`${key}: OGC <${iri}>, ours ${ours === undefined ? '(no term)' : `<${ours}>`}`);
    }
    console.log(
      `      OGC compatibility: ${applicable - incompatible.length}/${applicable} applicable OGC terms map to the same IRI ` +
        `(${reference.size} OGC terms; not applicable, the effective schema no longer gives them that IRI: ${notApplicable.join(', ') || 'none'})`,
    );
    assert.ok(applicable > 100, `only ${applicable} OGC terms apply`);
    assert.deepEqual(incompatible, [], `incompatible terms:\n${incompatible.join('\n')}`);
  });

  it('declare the OGC prefixes with the same IRIs', () => {
    const reference = (JSON.parse(readFileSync(referenceFile, 'utf8')) as JsonObject)['@context'] as JsonObject;
    const merged = buildContexts(loadSchema()).find((c) => c.path === 'mcp.jsonld')!.document['@context'] as JsonObject;
    for (const prefix of ['mcp', 'jrpc', 'xsd']) assert.equal(merged[prefix], reference[prefix], prefix);
  });
});
