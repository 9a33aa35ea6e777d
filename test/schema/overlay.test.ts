import assert from 'node:assert/strict';
import { applyOverlay, loadSchema, loadSeedDocuments, type Correction } from '../../src/schema/index.js';
import { isMcpLdError } from '../../src/core/problem.js';
import { syntheticSeed } from '../helpers/synthetic-schema.js';

const correction = (at: string, rest: Partial<Correction> = {}): Correction => ({
  at,
  in: 'mcp',
  why: 'a test correction',
  ...rest,
});

describe('schema overlay', () => {
  const seed = syntheticSeed({
    A: { type: 'object', properties: { params: { type: 'object', 'x-jsonld-type': 'urn:x' } } },
    B: {
      type: 'object',
      properties: { params: { type: 'object', 'x-jsonld-type': 'urn:x' }, name: { type: 'string' } },
    },
    C: { type: 'object', properties: { name: { type: 'string' } } },
  });

  it('applies a wildcard correction to every key where the rest of the pointer exists, and nowhere else', () => {
    const result = applyOverlay(seed, {
      corrections: [correction('/definitions/*/properties/params', { set: { 'x-jsonld-type': '@id' } })],
    });
    const definitions = result.mcp['definitions'] as Record<string, any>;
    assert.equal(definitions['A'].properties.params['x-jsonld-type'], '@id');
    assert.equal(definitions['B'].properties.params['x-jsonld-type'], '@id');
    assert.equal(definitions['C'].properties.params, undefined, 'no params is created where there was none');
    assert.equal(
      (seed.mcp['definitions'] as Record<string, any>)['A'].properties.params['x-jsonld-type'],
      'urn:x',
      'the seed is untouched',
    );
  });

  it('applies wildcards at several levels, to array items, and to unset and remove', () => {
    const unset = applyOverlay(seed, {
      corrections: [correction('/definitions/*/properties/*', { unset: ['x-jsonld-type'] })],
    });
    assert.equal((unset.mcp['definitions'] as Record<string, any>)['B'].properties.params['x-jsonld-type'], undefined);
    const removed = applyOverlay(seed, {
      corrections: [correction('/definitions/*/properties/name', { remove: true })],
    });
    const definitions = removed.mcp['definitions'] as Record<string, any>;
    assert.deepEqual(Object.keys(definitions['B'].properties), ['params']);
    assert.deepEqual(Object.keys(definitions['C'].properties), []);
    const members = applyOverlay(syntheticSeed({ U: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }), {
      corrections: [correction('/definitions/U/anyOf/*', { set: { description: 'a member' } })],
    });
    const anyOf = (members.mcp['definitions'] as Record<string, any>)['U'].anyOf;
    assert.deepEqual(
      anyOf.map((member: Record<string, unknown>) => member['description']),
      ['a member', 'a member'],
      'array items match too',
    );
  });

  it('fails with an error naming the correction when its pointer matches nothing', () => {
    const corrections = [
      correction('/definitions/A/properties/params', { set: { 'x-jsonld-type': '@id' } }),
      correction('/definitions/*/properties/nothing', { set: { a: 1 } }),
    ];
    assert.throws(
      () => applyOverlay(seed, { corrections }),
      (error: unknown) =>
        isMcpLdError(error) &&
        error.code === 'schema.overlay-invalid' &&
        error.pointer === '/corrections/1' &&
        /correction 2: \/definitions\/\*\/properties\/nothing matches nothing/.test(error.detail),
    );
    assert.throws(
      () => applyOverlay(seed, { corrections: [correction('/definitions/Z/properties/params', { remove: true })] }),
      /correction 1: .*\/definitions\/Z\/properties\/params/,
    );
  });

  it('corrects the params of all 28 requests and notifications of the MCP schema with one wildcard entry', () => {
    const schema = loadSchema();
    const params = Object.values(schema.documents.mcp['definitions'] as Record<string, any>).flatMap((definition) =>
      definition.properties?.params ? [definition.properties.params] : [],
    );
    assert.equal(params.length, 28);
    assert.ok(params.every((p) => p['x-jsonld-type'] === '@id'));
    const seedParams = Object.values(loadSeedDocuments().mcp['definitions'] as Record<string, any>).filter(
      (d) => d.properties?.params,
    );
    assert.ok(
      seedParams.every((d) => d.properties.params['x-jsonld-type'] === 'urn:mcp:params'),
      'the seed keeps its annotation',
    );
  });
});
