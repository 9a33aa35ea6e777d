import assert from 'node:assert/strict';
import { loadSchema } from '../../src/schema/index.js';
import { buildContexts, contextDefinitions } from '../../src/context/index.js';
import { expand } from '../helpers/jsonld.js';
import type { JsonObject } from '../../src/core/json.js';

describe('context: every generated context is valid JSON-LD 1.1', () => {
  const contexts = buildContexts(loadSchema());

  it('generates json-rpc.jsonld, mcp.jsonld, one context per message definition and one per generic base', () => {
    const paths = contexts.map((c) => c.path);
    assert.ok(paths.includes('json-rpc.jsonld'));
    assert.ok(paths.includes('mcp.jsonld'));
    for (const message of loadSchema().messages)
      assert.ok(paths.includes(`messages/${message.name}.jsonld`), message.name);
    for (const base of ['Request', 'Notification', 'Result'])
      assert.ok(paths.includes(`messages/${base}.jsonld`), `${base}, for unknown methods`);
    assert.equal(paths.length, contextDefinitions(loadSchema()).length + 2);
  });

  it('is accepted by jsonld.js, every property-scoped context included', async () => {
    for (const context of contexts) {
      // Processing a context validates its scoped contexts eagerly, at every depth (pinned below).
      await assert.doesNotReject(
        expand({ '@context': context.document['@context'] as JsonObject, '@id': 'https://example.org/x' }),
        context.path,
      );
    }
  });

  it('(jsonld.js rejects an invalid context nested deep in scoped contexts, so the check above covers them)', async () => {
    const broken = {
      '@version': 1.1,
      a: {
        '@id': 'https://example.org/a',
        '@type': '@id',
        '@context': [
          null,
          {
            b: {
              '@id': 'https://example.org/b',
              '@type': '@id',
              '@context': [null, { c: { '@id': 'https://example.org/c', '@type': '@nonsense' } }],
            },
          },
        ],
      },
    };
    await assert.rejects(expand({ '@context': broken }), /invalid scoped context/);
  });
});
