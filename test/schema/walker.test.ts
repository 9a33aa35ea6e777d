import assert from 'node:assert/strict';
import { getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { buildContexts } from '../../src/context/index.js';
import { findDefects } from '../../src/lint/lint-schema.js';
import { SchemaModel } from '../../src/lint/schema-model.js';
import {
  createSchemaIndex,
  loadSchema,
  protocolVersions,
  RefResolver,
  SchemaWalker,
  type SchemaLocation,
  type SeedDocuments,
} from '../../src/schema/index.js';
import { compareLintWithContexts, lintContextDisagreements } from '../helpers/lint-context-agreement.js';

/** The documents with the MCP schema's definitions moved from `definitions` (draft-07) to `$defs` (2020-12). */
function asDefs(documents: SeedDocuments): SeedDocuments {
  const rewrite = (value: JsonValue): JsonValue => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isJsonObject(value)) return value;
    const copy: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      copy[key] =
        key === '$ref' && typeof child === 'string' ? child.replace(/^#\/definitions\//, '#/$defs/') : rewrite(child);
    }
    return copy;
  };
  const { definitions, ...rest } = rewrite(documents.mcp) as JsonObject;
  return {
    mcp: { ...rest, $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: definitions! },
    'json-rpc': documents['json-rpc'],
  };
}

function walkerOver(definitions: JsonObject): { walker: SchemaWalker; at: (pointer: string) => SchemaLocation } {
  const documents: SeedDocuments = { mcp: { $defs: definitions }, 'json-rpc': {} };
  const resolver = new RefResolver(documents);
  return { walker: new SchemaWalker(resolver), at: (pointer) => resolver.at('mcp', pointer) };
}

const sorted = (types: ReadonlySet<string> | 'any') => (types === 'any' ? 'any' : [...types].sort().join('|'));

describe('schema walker', () => {
  it('reads the JSON types every keyword allows together', () => {
    const { walker, at } = walkerOver({
      Text: { type: 'string' },
      Both: { allOf: [{ type: ['string', 'integer'] }, { type: ['integer', 'boolean'] }] },
      Number: { allOf: [{ type: 'number' }, { type: 'integer' }] },
      Union: { anyOf: [{ $ref: '#/$defs/Text' }, { type: 'object' }] },
      Narrowed: { anyOf: [{ type: 'string' }, { type: 'integer' }], oneOf: [{ type: 'integer' }, { type: 'null' }] },
      Patterned: { patternProperties: { '^x-': { type: 'string' } } },
      Listed: { items: { type: 'string' } },
      Constant: { const: 3 },
      Free: { description: 'anything' },
    });
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Both'))), 'integer');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Number'))), 'integer');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Union'))), 'object|string');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Narrowed'))), 'integer');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Patterned'))), 'object');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Listed'))), 'array');
    assert.equal(sorted(walker.jsonTypes(at('/$defs/Constant'))), 'integer');
    assert.equal(walker.jsonTypes(at('/$defs/Free')), 'any');
  });

  it('finds the object a value is described by, and the members of an object through $ref, allOf and alternatives', () => {
    const { walker, at } = walkerOver({
      Base: { type: 'object', properties: { a: { type: 'string' } } },
      Item: { type: 'object', properties: { b: { type: 'string' } } },
      Thing: {
        allOf: [{ $ref: '#/$defs/Base' }],
        anyOf: [{ properties: { c: { type: 'string' } } }, { properties: { d: { type: 'string' } } }],
        properties: {
          list: { type: 'array', items: { $ref: '#/$defs/Item' } },
          words: { type: 'array', items: { type: 'string' } },
          one: { $ref: '#/$defs/Item' },
        },
      },
      Tuple: { type: 'array', items: [{ $ref: '#/$defs/Item' }] },
    });
    assert.deepEqual([...walker.members(at('/$defs/Thing')).keys()], ['list', 'words', 'one', 'a', 'c', 'd']);
    assert.equal(walker.objectOf(at('/$defs/Thing/properties/list'))?.pointer, '/$defs/Item');
    assert.equal(walker.objectOf(at('/$defs/Thing/properties/one'))?.pointer, '/$defs/Item');
    assert.equal(walker.objectOf(at('/$defs/Thing/properties/words')), undefined);
    assert.equal(walker.objectOf(at('/$defs/Tuple')), undefined, 'a tuple has no one schema for its items');
  });

  for (const protocol of protocolVersions) {
    it(`${protocol}: gives the lint and the generated message contexts the same reading of every annotated property`, () => {
      const report = compareLintWithContexts(loadSchema({ protocol }));
      assert.deepEqual(report.disagreements, []);
      assert.ok(report.compared.length > 150, `only ${report.compared.length} property sites compared`);
    });
  }

  it('leaves unreached only annotated properties no context can honour: unreferenced, refined, or only below @json', () => {
    const index = loadSchema();
    const report = compareLintWithContexts(index);
    const referenced = new Set(
      new SchemaModel(index.documents).refs.map((use) => `${use.targetDocument}#${use.target}`),
    );
    const onlyBelowJson = new Set(
      findDefects(index.documents)
        .filter((f) => f.rule === 'annotation-under-json')
        .map((f) => f.pointer),
    );
    const unexplained = report.unreached.filter((site) => {
      if (site.definition !== undefined && !referenced.has(`${site.document}#${site.definition}`)) return false;
      if (
        site.definition !== undefined &&
        [...onlyBelowJson].some((pointer) => pointer.endsWith(`/${site.definition}`))
      )
        return false;
      // A result's `result` is the MCP convention: the result definition describes it (see message-contexts.ts).
      if (site.document === 'json-rpc' && site.key === 'result') return false;
      // The message contexts leave `id` unmapped on purpose (its request-id node cannot be made from the raw JSON).
      if (site.document === 'json-rpc' && site.key === 'id') return false;
      // Refined: a compared site of the same key belongs to an object that builds on this one.
      return !report.compared.some((refining) => {
        if (refining.key !== site.key || refining === site) return false;
        const ownerPointer = refining.pointer.slice(0, refining.pointer.lastIndexOf('/properties/'));
        const owner = getAtPointer(index.documents[refining.document], ownerPointer);
        if (!isJsonObject(owner)) return false;
        const members = new SchemaWalker(index.resolver).members({
          document: refining.document,
          pointer: ownerPointer,
          node: owner,
        });
        return (members.get(site.key) ?? []).some(
          (schema) => schema.document === site.document && schema.pointer === site.pointer,
        );
      });
    });
    assert.deepEqual(
      unexplained.map((site) => site.label),
      [],
    );
  });

  it('reads a 2020-12 schema ($defs) as the draft-07 one (definitions): the same messages and contexts', () => {
    const draft07 = loadSchema();
    const defs = createSchemaIndex(asDefs(draft07.documents));
    assert.deepEqual(defs.definitionNames, draft07.definitionNames);
    assert.deepEqual(defs.messages, draft07.messages);
    assert.deepEqual(
      buildContexts(defs).map((context) => [context.path, context.text]),
      buildContexts(draft07).map((context) => [context.path, context.text]),
    );
    assert.deepEqual(lintContextDisagreements(defs), []);
    const lintOf = (documents: SeedDocuments) =>
      findDefects(documents).map(
        (f) => `${f.document}${f.pointer.replace(/^\/\$defs\//, '/definitions/')} ${f.rule} ${f.message}`,
      );
    assert.deepEqual(lintOf(defs.documents), lintOf(draft07.documents));
  });
});
