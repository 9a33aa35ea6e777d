import assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json.js';
import { createSchemaIndex, loadSchema, loadSeedDocuments, type SchemaIndex } from '../../src/schema/index.js';
import { buildContexts, mergedContext, messageContext } from '../../src/context/index.js';
import { toQuads, withContext } from '../helpers/jsonld.js';

const RPC = 'https://ogcincubator.github.io/modelcontextprotocol/build/annotated/json-rpc/schema.yaml';
const MCP = 'http://modelcontextprotocol.io/ontology#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const annotated = (id: string, type?: string, extra: JsonObject = {}): JsonObject => ({
  'x-jsonld-id': id,
  ...(type === undefined ? {} : { 'x-jsonld-type': type }),
  ...extra,
});

function request(method: string, params: JsonObject): JsonObject {
  return {
    allOf: [{ $ref: `${RPC}#Request` }],
    type: 'object',
    required: ['method', 'params'],
    properties: {
      method: { const: method, type: 'string' },
      params: { type: 'object', properties: params, ...annotated('jrpc:hasParameters', '@id') },
    },
  };
}

/** A small MCP-like schema over the real JSON-RPC schema: what each test needs and nothing else. */
function syntheticIndex(definitions: JsonObject): SchemaIndex {
  const seed = loadSeedDocuments();
  const base: JsonObject = {
    Result: {
      allOf: [{ $ref: `${RPC}#Response` }],
      type: 'object',
      properties: { _meta: { type: 'object', ...annotated('mcp:hasMetadata', '@json') } },
    },
    EmptyResult: { $ref: '#/definitions/Result' },
    Thing: {
      type: 'object',
      properties: {
        name: { type: 'string', ...annotated('mcp:hasName', 'xsd:string') },
        type: { const: 'thing', type: 'string', ...annotated('mcp:hasThingType', 'xsd:string') },
      },
    },
    Other: {
      type: 'object',
      properties: {
        name: { type: 'string', ...annotated('mcp:hasOtherName', 'xsd:string') },
        type: { const: 'other', type: 'string', ...annotated('mcp:hasOtherType', 'xsd:string') },
      },
    },
    Level: { type: 'string', enum: ['low', 'high'] },
  };
  const mcp: JsonObject = {
    definitions: { ...base, ...definitions },
    'x-jsonld-prefixes': { mcp: MCP, xsd: XSD, jrpc: 'http://json-rpc.org/ontology#' },
  };
  return createSchemaIndex({ mcp, 'json-rpc': seed['json-rpc'] });
}

const contextOf = (index: SchemaIndex, name: string): JsonObject => messageContext(index, index.message(name)!);
const paramsScope = (context: JsonObject): JsonObject => {
  const params = (context['@context'] as JsonObject)['params'] as JsonObject;
  const scoped = params['@context'] as [null, JsonObject];
  assert.equal(scoped[0], null, 'a property-scoped context starts with a reset');
  return scoped[1];
};

const doRequest = request('do', {
  thing: { $ref: '#/definitions/Thing', ...annotated('mcp:hasThing', 'mcp:Thing') },
  other: { $ref: '#/definitions/Other', ...annotated('mcp:hasOther', '@id') },
  level: { $ref: '#/definitions/Level', ...annotated('mcp:hasLevel', 'mcp:Level') },
  things: {
    type: 'array',
    items: { $ref: '#/definitions/Thing' },
    ...annotated('mcp:hasThings', '@id', { 'x-jsonld-container': '@list' }),
  },
  blob: {
    type: 'object',
    properties: { name: { type: 'string', ...annotated('mcp:hasName') } },
    ...annotated('mcp:hasBlob', '@json'),
  },
  link: { type: 'string', format: 'uri', ...annotated('mcp:links', '@id') },
  note: { type: 'string' },
});

describe('context: message contexts', () => {
  it('scope params to exactly the definition, with the JSON-RPC terms around them', () => {
    const index = syntheticIndex({ DoRequest: doRequest });
    const context = contextOf(index, 'DoRequest')['@context'] as JsonObject;
    assert.equal(context['@version'], 1.1);
    assert.deepEqual(Object.keys(context), [
      '@comment',
      '@version',
      '@vocab',
      'jrpc',
      'xsd',
      'id',
      'jsonrpc',
      'method',
      'params',
    ]);
    assert.equal(context['id'], null, 'id is unmapped: its request-id node cannot be made from the raw JSON');
    assert.equal(
      context['@vocab'],
      'https://w3id.org/mcp-ld/ext#',
      'keys the schema does not know expand into the extension namespace',
    );
    assert.deepEqual(context['method'], { '@id': 'jrpc:hasMethod', '@type': 'xsd:string' });
    const scope = paramsScope({ '@context': context });
    assert.deepEqual(
      Object.keys(scope),
      ['@vocab', 'mcp', 'blob', 'level', 'link', 'other', 'thing', 'things'],
      'only the prefixes it uses; unannotated keys get no term',
    );
  });

  it('make a class-typed object a node (@type @id) and keep a class on a string as its datatype', () => {
    const scope = paramsScope(contextOf(syntheticIndex({ DoRequest: doRequest }), 'DoRequest'));
    const thing = scope['thing'] as JsonObject;
    assert.equal(thing['@id'], 'mcp:hasThing');
    assert.equal(thing['@type'], '@id');
    assert.deepEqual(scope['level'], { '@id': 'mcp:hasLevel', '@type': 'mcp:Level' });
    assert.deepEqual(scope['link'], { '@id': 'mcp:links', '@type': '@id' });
  });

  it('turn @list into a list container and @json into a JSON literal with nothing scoped below it', () => {
    const scope = paramsScope(contextOf(syntheticIndex({ DoRequest: doRequest }), 'DoRequest'));
    const things = scope['things'] as JsonObject;
    assert.equal(things['@container'], '@list');
    assert.equal(things['@type'], '@id');
    assert.ok(Array.isArray(things['@context']));
    assert.deepEqual(scope['blob'], { '@id': 'mcp:hasBlob', '@type': '@json' });
  });

  it('let the same key mean what its own definition says, and keep outer terms out of inner objects', async () => {
    const index = syntheticIndex({ DoRequest: doRequest });
    const context = contextOf(index, 'DoRequest');
    const quads = await toQuads(
      withContext(
        {
          jsonrpc: '2.0',
          id: 'r1',
          method: 'do',
          params: {
            thing: { name: 'a', level: 'low', method: 'leak?' },
            other: { name: 'b', type: 'other' },
            level: 'high',
          },
        },
        context,
      ),
    );
    const byPredicate = (iri: string) => quads.filter((q) => q.predicate.value === iri);
    assert.equal(byPredicate(`${MCP}hasName`)[0]?.object.value, 'a');
    assert.equal(byPredicate(`${MCP}hasOtherName`)[0]?.object.value, 'b');
    assert.equal(byPredicate(`${MCP}hasLevel`).length, 1, '`level` inside the thing is not a term of Thing');
    assert.equal(byPredicate(`${MCP}hasLevel`)[0]?.object.datatype?.value, `${MCP}Level`);
    assert.equal(
      byPredicate('http://json-rpc.org/ontology#hasMethod').length,
      1,
      '`method` inside params does not leak in',
    );
  });

  it('merge the terms of anyOf alternatives that agree', () => {
    const index = syntheticIndex({
      PickRequest: request('pick', {
        pick: {
          anyOf: [
            { $ref: '#/definitions/Thing' },
            {
              type: 'object',
              properties: {
                name: { type: 'string', ...annotated('mcp:hasName', 'xsd:string') },
                size: { type: 'integer', ...annotated('mcp:hasSize', 'xsd:integer') },
              },
            },
          ],
          ...annotated('mcp:hasPick', '@id'),
        },
      }),
    });
    const pick = paramsScope(contextOf(index, 'PickRequest'))['pick'] as JsonObject;
    const scope = (pick['@context'] as [null, JsonObject])[1];
    assert.deepEqual(Object.keys(scope), ['@vocab', 'mcp', 'xsd', 'name', 'size', 'type']);
  });

  it('report a key that anyOf alternatives give two meanings, naming both pointers', () => {
    const index = syntheticIndex({
      ClashRequest: request('clash', {
        either: {
          anyOf: [{ $ref: '#/definitions/Thing' }, { $ref: '#/definitions/Other' }],
          ...annotated('mcp:hasEither', '@id'),
        },
      }),
    });
    assert.throws(
      () => buildContexts(index, { reference: new Map() }),
      (error: Error) =>
        /Conflicting annotations/.test(error.message) &&
        /key "name"/.test(error.message) &&
        error.message.includes('#/definitions/Thing/properties/name') &&
        error.message.includes('#/definitions/Other/properties/name'),
    );
  });

  it('report a recursive definition instead of nesting contexts without end', () => {
    const index = syntheticIndex({
      Tree: {
        type: 'object',
        properties: { child: { $ref: '#/definitions/Tree', ...annotated('mcp:hasChild', '@id') } },
      },
      GrowRequest: request('grow', { tree: { $ref: '#/definitions/Tree', ...annotated('mcp:hasTree', '@id') } }),
    });
    assert.throws(() => contextOf(index, 'GrowRequest'), /Recursive schema/);
  });

  it('scope a result definition under `result`, beside the JSON-RPC error', () => {
    const index = syntheticIndex({
      DoRequest: request('do', {}),
      DoResult: {
        allOf: [{ $ref: `${RPC}#Response` }],
        type: 'object',
        properties: { thing: { $ref: '#/definitions/Thing', ...annotated('mcp:hasThing', '@id') } },
      },
    });
    const context = contextOf(index, 'DoResult')['@context'] as JsonObject;
    assert.deepEqual(Object.keys(context), [
      '@comment',
      '@version',
      '@vocab',
      'jrpc',
      'xsd',
      'error',
      'id',
      'jsonrpc',
      'result',
    ]);
    const result = context['result'] as JsonObject;
    assert.equal(result['@id'], 'jrpc:hasResult');
    assert.equal(
      result['@type'],
      '@id',
      'the result is a node, not the opaque JSON the JSON-RPC schema alone would make it',
    );
    assert.deepEqual(Object.keys((result['@context'] as [null, JsonObject])[1]), ['@vocab', 'mcp', 'thing']);
    const error = context['error'] as JsonObject;
    assert.deepEqual(Object.keys((error['@context'] as [null, JsonObject])[1]), [
      '@vocab',
      'jrpc',
      'xsd',
      'code',
      'data',
      'message',
    ]);
  });

  it('write CallToolRequest with its params scoped to name and arguments', () => {
    const context = messageContext(loadSchema(), loadSchema().messageForMethod('tools/call')!)[
      '@context'
    ] as JsonObject;
    const scope = paramsScope({ '@context': context });
    assert.deepEqual(scope['name'], { '@id': 'mcp:hasName', '@type': 'xsd:string' });
    assert.deepEqual(scope['arguments'], { '@id': 'mcp:hasArguments', '@type': '@json' });
  });
});

describe('context: merged context', () => {
  const names = (definitions: JsonObject) =>
    syntheticIndex({
      ...definitions,
      ThingRequest: request('thing', { thing: { $ref: '#/definitions/Thing', ...annotated('mcp:hasThing', '@id') } }),
      OtherRequest: request('other', { other: { $ref: '#/definitions/Other', ...annotated('mcp:hasOther', '@id') } }),
    });
  const termOf = (index: SchemaIndex, key: string, reference: Map<string, string> = new Map()) =>
    (mergedContext(index, { reference })['@context'] as JsonObject)[key] as JsonObject;

  it('break a tie between meanings by IRI', () => {
    assert.equal(termOf(names({}), 'name')['@id'], 'mcp:hasName');
  });

  it('prefer the most frequent meaning', () => {
    const index = names({
      AgainRequest: request('again', {
        again: { $ref: '#/definitions/Other', ...annotated('mcp:hasAgain', '@id') },
        name: { type: 'string', ...annotated('mcp:hasOtherName', 'xsd:string') },
      }),
    });
    assert.equal(termOf(index, 'name')['@id'], 'mcp:hasOtherName');
  });

  it("prefer the reference's meaning when the schema has it too, and ignore it when not", () => {
    assert.equal(termOf(names({}), 'name', new Map([['name', `${MCP}hasOtherName`]]))['@id'], 'mcp:hasOtherName');
    assert.equal(termOf(names({}), 'name', new Map([['name', `${MCP}notInTheSchema`]]))['@id'], 'mcp:hasName');
  });

  it("give a key that always holds one definition the overrides of that definition's keys", () => {
    const message = { type: 'string', ...annotated('mcp:hasMessage', 'xsd:string') };
    const index = names({ SayRequest: request('say', { message }), ShoutRequest: request('shout', { message }) });
    assert.equal(termOf(index, 'message')['@id'], 'mcp:hasMessage');
    const error = termOf(index, 'error');
    assert.equal(error['@id'], 'jrpc:hasError');
    const overrides = error['@context'] as JsonObject;
    assert.ok(!Array.isArray(overrides), 'overrides do not reset the flat terms');
    assert.deepEqual(overrides['message'], { '@id': 'jrpc:hasErrorMessage', '@type': 'xsd:string' });
  });
});
