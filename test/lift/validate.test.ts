import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachePath } from '../../src/core/cache.js';
import type { JsonObject } from '../../src/core/json.js';
import { loadSchema, type SchemaIndex } from '../../src/schema/index.js';
import { MessageValidator, type ValidationProblem } from '../../src/lift/validate.js';
import { trafficRecords } from '../helpers/corpus.js';
import { cacheEntries, schemaOfOurOwn } from '../helpers/schema-of-our-own.js';

/** Every check a validator offers, over the corpus and a few broken messages. */
function verdicts(validator: MessageValidator, schema: SchemaIndex): (ValidationProblem[] | boolean)[] {
  const broken: JsonObject[] = [
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 3 } },
    { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} },
    { jsonrpc: '1.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 3, result: { tools: [{ name: 'x' }] } },
  ];
  const messages = [...trafficRecords().map((record) => record.msg), ...broken];
  const results = schema.messages.filter((m) => m.kind === 'result');
  return messages.flatMap((msg) => {
    const method = typeof msg['method'] === 'string' ? schema.messageForMethod(msg['method']) : undefined;
    if (method)
      return [
        validator.validateMessage(method.name, msg),
        validator.validateEnvelope(method.kind === 'request' ? 'Request' : 'Notification', msg),
      ];
    const result = msg['result'] ?? null;
    return [
      validator.validateEnvelope('Response', msg),
      ...results.map((m) => validator.validateResult(m.name, msg)),
      ...results.map((m) => validator.fitsResult(m.name, result)),
    ];
  });
}

describe('lift: validation', () => {
  // Read when the tests run, not when the file loads: other tests write validators of their own in between.
  let existing = new Set<string>();
  before(() => {
    existing = cacheEntries();
  });
  after(() => {
    for (const name of cacheEntries())
      if (!existing.has(name) && name.startsWith('validators-'))
        rmSync(cachePath(name), { recursive: true, force: true });
  });

  it('validates alike with validators generated in the process, read from the cache, or generated again for a damaged cache', () => {
    const schema = schemaOfOurOwn('validate.test');
    const generated = verdicts(new MessageValidator(schema), schema);
    const written = [...cacheEntries()].filter((name) => !existing.has(name) && name.startsWith('validators-'));
    assert.equal(written.length, 1, 'the generated validators were cached');
    assert.deepEqual(verdicts(new MessageValidator(schema), schema), generated);
    const dir = cachePath(written[0]!);
    const damage = 'exports.v0 = function (';
    for (const file of readdirSync(dir)) writeFileSync(path.join(dir, file), damage);
    assert.deepEqual(verdicts(new MessageValidator(schema), schema), generated);
    assert.ok(
      readdirSync(dir).every((file) => readFileSync(path.join(dir, file), 'utf8') !== damage),
      'the damaged cache was written again',
    );
    assert.deepEqual(verdicts(new MessageValidator(schema), schema), generated);
    // The shipped schema differs only by a description: its validators (cached or not) agree.
    assert.deepEqual(verdicts(new MessageValidator(loadSchema()), loadSchema()), generated);
    assert.ok(
      generated.some((verdict) => Array.isArray(verdict) && verdict.length > 0),
      'some messages have problems',
    );
  });

  it('refuses a definition it has no validator for', () => {
    const validator = new MessageValidator(loadSchema());
    assert.throws(() => validator.validateMessage('NoSuchRequest', {}), /no validator for/);
    assert.throws(() => validator.fitsResult('CallToolRequest', {}), /no validator for/);
  });
});
