import assert from 'node:assert/strict';
import {
  annotationCoverage,
  carriedFrom,
  carryAnnotations,
  loadSchema,
  normalizeOfficialSchema,
  parseProtocolVersion,
  parseVersionAnnotations,
  propertyLabel,
  protocolVersions,
  versionFor,
} from '../../src/schema/index.js';
import { isMcpLdError } from '../../src/core/problem.js';

describe('schema: every protocol version', () => {
  it('knows five versions, carries each from its neighbour nearer the seed, and reads an unknown one by the newest older one', () => {
    assert.deepEqual([...protocolVersions], ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
    assert.deepEqual(protocolVersions.map(carriedFrom), [
      '2025-03-26',
      '2025-06-18',
      undefined,
      '2025-06-18',
      '2025-11-25',
    ]);
    assert.equal(versionFor('2025-11-25'), '2025-11-25');
    assert.equal(versionFor('2027-01-01'), '2026-07-28');
    assert.equal(versionFor('2025-09-01'), '2025-06-18');
    assert.equal(versionFor('2024-10-07'), '2024-11-05', 'older than every known version: the oldest');
    assert.equal(versionFor('latest'), undefined);
    assert.throws(
      () => parseProtocolVersion('2099-01-01'),
      (error) => isMcpLdError(error) && error.status === 400 && /known versions: 2024-11-05, /.test(error.detail),
    );
  });

  for (const version of protocolVersions) {
    it(`${version}: every property a message can carry is annotated or excused, and the messages are classified`, () => {
      const index = loadSchema({ protocol: version });
      assert.equal(index.version, version);
      const coverage = annotationCoverage(index);
      assert.deepEqual(coverage.missing.map(propertyLabel), []);
      assert.ok(coverage.reached > 150, `only ${coverage.reached} properties reached`);
      const call = index.messageForMethod('tools/call');
      assert.equal(call?.name, 'CallToolRequest');
      assert.deepEqual(call?.senders, ['client']);
      assert.equal(index.resultForMethod('tools/call')?.name, 'CallToolResult');
    });
  }

  it('2026-07-28 has server/discover and subscriptions/listen and no initialize, ping or logging/setLevel', () => {
    const index = loadSchema({ protocol: '2026-07-28' });
    assert.equal(index.resultForMethod('server/discover')?.name, 'DiscoverResult');
    assert.equal(index.messageForMethod('subscriptions/listen')?.name, 'SubscriptionsListenRequest');
    for (const method of [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'tasks/list',
      'tasks/result',
    ])
      assert.equal(index.messageForMethod(method), undefined, method);
    // The client may send notifications/cancelled (2026-07-28 writes its one-member union as the member itself).
    assert.deepEqual(index.messageForMethod('notifications/cancelled')?.senders, ['client', 'server']);
    // A tools/call may be answered by a task handle: the Tasks extension's (schemas/official/2026-07-28/extensions/).
    assert.deepEqual(index.versionFacts.resultAlternatives['CallToolRequest'], [
      'InputRequiredResult',
      'CallToolResult',
      'CreateTaskResult',
    ]);
  });

  it('2026-07-28 has the Tasks extension: tasks/get, tasks/update, tasks/cancel and notifications/tasks, by their own definitions', () => {
    const index = loadSchema({ protocol: '2026-07-28' });
    const of = (method: string) => {
      const message = index.messageForMethod(method);
      return message && { name: message.name, senders: message.senders, result: index.resultForMethod(method)?.name };
    };
    assert.deepEqual(of('tasks/get'), { name: 'GetTaskRequest', senders: ['client'], result: 'GetTaskResult' });
    assert.deepEqual(of('tasks/update'), {
      name: 'UpdateTaskRequest',
      senders: ['client'],
      result: 'UpdateTaskResult',
    });
    assert.deepEqual(of('tasks/cancel'), {
      name: 'CancelTaskRequest',
      senders: ['client'],
      result: 'CancelTaskResult',
    });
    assert.deepEqual(of('notifications/tasks'), {
      name: 'TaskStatusNotification',
      senders: ['server'],
      result: undefined,
    });
    const definitions = index.documents.mcp['definitions'] as Record<string, any>;
    // A task's state by status, each variant annotated as 2025-11-25's Task (carried), `ttlMs` as 2025-11-25's `ttl`.
    assert.deepEqual(
      definitions['DetailedTask'].anyOf.map((m: { $ref: string }) => m.$ref),
      ['WorkingTask', 'InputRequiredTask', 'CompletedTask', 'FailedTask', 'CancelledTask'].map(
        (n) => `#/definitions/${n}`,
      ),
    );
    for (const variant of ['Task', 'WorkingTask', 'CompletedTask']) {
      assert.equal(definitions[variant].properties.taskId['x-jsonld-id'], 'mcp:hasTaskId', variant);
      assert.equal(definitions[variant].properties.ttlMs['x-jsonld-id'], 'mcp:hasTtl', variant);
    }
    // The extension adds `taskIds` to the subscription filter.
    assert.equal(definitions['SubscriptionFilter'].properties.taskIds['x-jsonld-id'], 'mcp:subscribesToTask');
  });

  it("2025-11-25 has tasks and URL elicitation; every version keeps the seed's IRI for an unchanged property", () => {
    const index = loadSchema({ protocol: '2025-11-25' });
    assert.equal(index.messageForMethod('tasks/get')?.name, 'GetTaskRequest');
    const annotation = (protocol: (typeof protocolVersions)[number], definition: string, ...keys: string[]) => {
      let node = (loadSchema({ protocol }).documents.mcp['definitions'] as Record<string, any>)[definition];
      for (const key of keys) node = node.properties[key];
      return node['x-jsonld-id'];
    };
    assert.equal(annotation('2024-11-05', 'Tool', 'inputSchema'), annotation('2025-06-18', 'Tool', 'inputSchema'));
    assert.equal(annotation('2026-07-28', 'Tool', 'inputSchema'), annotation('2025-06-18', 'Tool', 'inputSchema'));
    assert.equal(
      annotation('2025-11-25', 'ElicitRequestURLParams', 'message'),
      annotation('2025-06-18', 'ElicitRequest', 'params', 'message'),
    );
    assert.equal(
      annotation('2025-03-26', 'ResourceReference', 'uri'),
      annotation('2025-06-18', 'ResourceTemplateReference', 'uri'),
    );
  });
});

describe('schema: normalizing an official schema and carrying annotations to it', () => {
  const official = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: {
      ClientRequest: { anyOf: [{ $ref: '#/$defs/EchoRequest' }] },
      ServerResult: { anyOf: [{ $ref: '#/$defs/EchoResult' }] },
      ClientNotification: {
        properties: { method: { const: 'notifications/bye' }, jsonrpc: { const: '2.0' } },
        type: 'object',
      },
      ByeNotification: {
        properties: { method: { const: 'notifications/bye' }, jsonrpc: { const: '2.0' } },
        type: 'object',
      },
      EchoRequest: {
        properties: {
          jsonrpc: { const: '2.0' },
          id: { $ref: '#/$defs/RequestId' },
          method: { const: 'echo' },
          params: { $ref: '#/$defs/EchoRequestParams' },
        },
        required: ['id', 'jsonrpc', 'method', 'params'],
        type: 'object',
      },
      EchoRequestParams: { properties: { text: { type: 'string' }, loud: { type: 'boolean' } }, type: 'object' },
      EchoResult: { properties: { text: { type: 'string' } }, type: 'object' },
      EchoResultResponse: { properties: { result: { anyOf: [{ $ref: '#/$defs/EchoResult' }] } } },
      JSONRPCRequest: { type: 'object' },
      RequestId: { type: ['string', 'integer'] },
    },
  };

  it('puts definitions under `definitions`, builds messages on the JSON-RPC anchors and leaves the envelopes out', () => {
    const { document, envelopes, resultAlternatives } = normalizeOfficialSchema(official);
    const definitions = document['definitions'] as Record<string, any>;
    assert.deepEqual(envelopes, ['EchoResultResponse', 'JSONRPCRequest']);
    assert.deepEqual(resultAlternatives, { EchoRequest: ['EchoResult'] });
    assert.match(definitions.EchoRequest.allOf[0].$ref, /#Request$/);
    assert.deepEqual(Object.keys(definitions.EchoRequest.properties), ['method', 'params']);
    assert.deepEqual(definitions.EchoRequest.required, ['method', 'params']);
    assert.equal(definitions.EchoRequest.properties.params.$ref, '#/definitions/EchoRequestParams');
    assert.match(definitions.EchoResult.allOf[0].$ref, /#Response$/);
    // A one-member union written as its member becomes a union of the definition with the same method.
    assert.deepEqual(definitions.ClientNotification.anyOf, [{ $ref: '#/definitions/ByeNotification' }]);
    assert.match(definitions.ByeNotification.allOf[0].$ref, /#Notification$/);
  });

  it('carries annotations through the split of inline params into a definition, and never overwrites one', () => {
    const earlier = {
      definitions: {
        EchoRequest: {
          properties: {
            params: {
              properties: { text: { type: 'string', 'x-jsonld-id': 'mcp:hasText', 'x-jsonld-type': 'xsd:string' } },
              'x-jsonld-id': 'jrpc:hasParameters',
              'x-jsonld-type': '@id',
            },
          },
        },
        EchoResult: { properties: { text: { 'x-jsonld-id': 'mcp:hasText' } } },
        Gone: {},
      },
      'x-jsonld-extra-terms': { EchoRequest: 'mcp:EchoRequest', Gone: 'mcp:Gone', loose: 'mcp:loose' },
    };
    const later = normalizeOfficialSchema(official).document;
    ((later['definitions'] as any).EchoResult.properties.text as any)['x-jsonld-id'] = 'mcp:hasEcho';
    const { document, report } = carryAnnotations(earlier, later);
    const definitions = document['definitions'] as Record<string, any>;
    assert.equal(definitions.EchoRequest.properties.params['x-jsonld-id'], 'jrpc:hasParameters');
    assert.deepEqual(definitions.EchoRequestParams.properties.text, {
      type: 'string',
      'x-jsonld-id': 'mcp:hasText',
      'x-jsonld-type': 'xsd:string',
    });
    assert.equal(
      definitions.EchoRequestParams.properties.loud['x-jsonld-id'],
      undefined,
      'new in the later version: its annotation file says',
    );
    assert.equal(
      definitions.EchoResult.properties.text['x-jsonld-id'],
      'mcp:hasEcho',
      'an annotation already there is kept',
    );
    assert.deepEqual(report.pairedDefinitions, [
      { definition: 'EchoRequestParams', from: '/definitions/EchoRequest/properties/params' },
    ]);
    assert.deepEqual(
      document['x-jsonld-extra-terms'],
      { EchoRequest: 'mcp:EchoRequest', loose: 'mcp:loose' },
      'no class of a definition the later version dropped',
    );
  });

  it('reads an annotation file: terms, annotate paths (a `/` in a key as ~1), renames, excuses; a path without a reason is an error', () => {
    const annotations = parseVersionAnnotations('2099-01-01', {
      renamed: { NewName: 'OldName' },
      terms: { Thing: 'mcp:Thing' },
      annotate: { 'Meta/io.example~1key': 'mcp:io.example/key xsd:string', 'Thing/items': 'mcp:hasItem @id @list' },
      unannotated: { 'Thing/raw': 'kept as the extension key it has always been' },
    });
    assert.deepEqual(annotations.renamed, { NewName: 'OldName' });
    assert.deepEqual(annotations.annotated, [
      '/definitions/Meta/properties/io.example~1key',
      '/definitions/Thing/properties/items',
    ]);
    assert.deepEqual(
      annotations.corrections.map((c) => [c.at, c.set]),
      [
        ['/x-jsonld-extra-terms/Thing', { 'x-jsonld-id': 'mcp:Thing', 'x-jsonld-type': '@id' }],
        [
          '/definitions/Meta/properties/io.example~1key',
          { 'x-jsonld-id': 'mcp:io.example/key', 'x-jsonld-type': 'xsd:string' },
        ],
        [
          '/definitions/Thing/properties/items',
          { 'x-jsonld-id': 'mcp:hasItem', 'x-jsonld-type': '@id', 'x-jsonld-container': '@list' },
        ],
      ],
    );
    assert.deepEqual(annotations.unannotated, [
      { at: '/definitions/Thing/properties/raw', why: 'kept as the extension key it has always been' },
    ]);
    assert.throws(
      () => parseVersionAnnotations('2099-01-01', { unannotated: { 'Thing/raw': '' } }),
      /say why it is left out/,
    );
    assert.throws(
      () => parseVersionAnnotations('2099-01-01', { annotate: { 'Thing/a': 'a b c d' } }),
      /more than an IRI/,
    );
  });
});
