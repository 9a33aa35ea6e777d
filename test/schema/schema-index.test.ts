import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSchema, RefResolver, loadSeedDocuments } from '../../src/schema/index.js';
import { packageRoot } from '../../src/core/paths.js';

describe('schema', () => {
  const schema = loadSchema();

  it('ships the seed schema untouched', () => {
    const seed = readFileSync(path.join(packageRoot, 'schemas', 'mcp-2025-06-18.annotated.yaml'));
    // sha256 of the published seed: the overlay carries every correction instead.
    assert.equal(
      createHash('sha256').update(seed).digest('hex'),
      '89bb40eadd5612de975cf681848fb9c323c87f3795ed4f84d62776edb6001ebf',
    );
  });

  it('maps every client→server method to its request and result definition', () => {
    const expected: Record<string, [string, string]> = {
      initialize: ['InitializeRequest', 'InitializeResult'],
      ping: ['PingRequest', 'EmptyResult'],
      'resources/list': ['ListResourcesRequest', 'ListResourcesResult'],
      'resources/templates/list': ['ListResourceTemplatesRequest', 'ListResourceTemplatesResult'],
      'resources/read': ['ReadResourceRequest', 'ReadResourceResult'],
      'resources/subscribe': ['SubscribeRequest', 'EmptyResult'],
      'resources/unsubscribe': ['UnsubscribeRequest', 'EmptyResult'],
      'prompts/list': ['ListPromptsRequest', 'ListPromptsResult'],
      'prompts/get': ['GetPromptRequest', 'GetPromptResult'],
      'tools/list': ['ListToolsRequest', 'ListToolsResult'],
      'tools/call': ['CallToolRequest', 'CallToolResult'],
      'logging/setLevel': ['SetLevelRequest', 'EmptyResult'],
      'completion/complete': ['CompleteRequest', 'CompleteResult'],
    };
    for (const [method, [request, result]] of Object.entries(expected)) {
      const message = schema.messageForMethod(method);
      assert.equal(message?.name, request, method);
      assert.ok(message.senders.includes('client'), `${method} is sent by clients`);
      assert.equal(schema.resultForMethod(method)?.name, result, method);
    }
  });

  it('maps every server→client method to its request and result definition', () => {
    const expected: Record<string, [string, string]> = {
      'sampling/createMessage': ['CreateMessageRequest', 'CreateMessageResult'],
      'roots/list': ['ListRootsRequest', 'ListRootsResult'],
      'elicitation/create': ['ElicitRequest', 'ElicitResult'],
      ping: ['PingRequest', 'EmptyResult'],
    };
    for (const [method, [request, result]] of Object.entries(expected)) {
      const message = schema.messageForMethod(method);
      assert.equal(message?.name, request, method);
      assert.ok(message.senders.includes('server'), `${method} is sent by servers`);
      assert.equal(schema.resultForMethod(method)?.name, result, method);
    }
    assert.equal(schema.defaultDirection('roots/list'), 's2c');
    assert.equal(schema.defaultDirection('ping'), 'c2s');
    assert.equal(schema.defaultDirection('tools/call'), 'c2s');
    assert.equal(schema.defaultDirection('tasks/get'), 'c2s', 'an unknown method counts as client→server');
  });

  it('classifies notifications with their senders', () => {
    assert.deepEqual(schema.messageForMethod('notifications/progress')?.senders, ['client', 'server']);
    assert.deepEqual(schema.messageForMethod('notifications/message')?.senders, ['server']);
    assert.deepEqual(schema.messageForMethod('notifications/roots/list_changed')?.senders, ['client']);
    assert.equal(schema.messageForMethod('notifications/initialized')?.kind, 'notification');
    assert.equal(schema.messages.filter((m) => m.kind === 'notification').length, 9);
    assert.equal(schema.messages.filter((m) => m.kind === 'request').length, 16);
  });

  it('resolves the JSON-RPC schema URL and its anchors to the bundled copy', () => {
    const resolver = new RefResolver(loadSeedDocuments());
    const base = 'https://ogcincubator.github.io/modelcontextprotocol/build/annotated/json-rpc/schema.yaml';
    for (const anchor of ['Request', 'Response', 'Notification']) {
      const location = resolver.resolve(`${base}#${anchor}`, 'mcp');
      assert.equal(location.document, 'json-rpc');
      assert.equal(location.pointer, `/$defs/${anchor}`);
    }
    assert.equal(resolver.resolve('#/$defs/IDObject', 'json-rpc').pointer, '/$defs/IDObject');
    assert.equal(resolver.resolve('#ProgressToken', 'mcp').pointer, '/definitions/ProgressToken');
    assert.equal(resolver.follow(resolver.at('mcp', '/definitions/EmptyResult')).pointer, '/definitions/Result');
  });

  it('refuses to resolve any other URL instead of fetching it', () => {
    const resolver = new RefResolver(loadSeedDocuments());
    assert.throws(
      () => resolver.resolve('https://example.org/schema.yaml#/definitions/X', 'mcp'),
      /nothing is fetched/,
    );
    assert.throws(() => resolver.resolve('#/definitions/NoSuchThing', 'mcp'), /Unresolvable \$ref/);
  });
});
