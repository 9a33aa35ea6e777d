import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import { isJsonObject, type JsonObject } from '../../src/core/json.js';
import { loadSchema } from '../../src/schema/index.js';
import { buildContexts } from '../../src/context/index.js';
import { expand, toQuads, withContext } from '../helpers/jsonld.js';

const examplesDir = path.join(packageRoot, 'test', 'fixtures', 'ogc-examples');

describe('context: the 20 OGC examples', () => {
  const index = loadSchema();
  const contexts = new Map(buildContexts(index).map((c) => [c.path, c.document]));
  const examples = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, message: JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8')) as JsonObject }));

  it('are all there', () => assert.equal(examples.length, 20));

  it('expand with mcp.jsonld and yield triples', async () => {
    for (const { file, message } of examples) {
      const document = withContext(message, contexts.get('mcp.jsonld')!);
      await assert.doesNotReject(expand(document), file);
      assert.ok((await toQuads(document)).length > 0, `${file} yields no triple`);
    }
  });

  it('expand with the message context of their method and yield triples', async () => {
    for (const { file, message } of examples) {
      const method = message['method'];
      assert.equal(typeof method, 'string', `${file} has a method`);
      const definition = index.messageForMethod(method as string);
      assert.ok(definition, `${file}: the schema knows ${String(method)}`);
      const context = contexts.get(`messages/${definition.name}.jsonld`);
      assert.ok(context && isJsonObject(context), `${file}: a context for ${definition.name}`);
      const document = withContext(message, context);
      await assert.doesNotReject(expand(document), file);
      const quads = await toQuads(document);
      assert.ok(quads.length > 0, `${file} yields no triple with ${definition.name}.jsonld`);
      if (isJsonObject(message['params']) && Object.keys(message['params']).length > 0) {
        assert.ok(
          quads.some((q) => q.predicate.value === 'http://json-rpc.org/ontology#hasParameters'),
          `${file}: params become a node`,
        );
      }
    }
  });
});
