import assert from 'node:assert/strict';
import { runCli } from '../helpers/run-cli.js';

describe('cli', () => {
  it('lists its commands on `help` and exits 0', async () => {
    const result = await runCli(['help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /usage: mcp-ld <command>/);
    assert.match(result.stdout, /^ {2}schema /m);
  });

  it('exits 2 and names an unknown command', async () => {
    const result = await runCli(['frobnicate']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command "frobnicate"/);
  });

  it('exits 2 with the usage on an unknown option', async () => {
    const result = await runCli(['schema', '--bogus']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown option --bogus\n/);
    assert.match(result.stderr, /usage: mcp-ld schema/);
  });

  it('`schema` prints the effective schema with the seed structure', async () => {
    const result = await runCli(['schema']);
    assert.equal(result.code, 0);
    const schema = JSON.parse(result.stdout);
    assert.ok(schema.definitions.CallToolRequest);
    assert.ok(schema['x-jsonld-prefixes'].mcp);
    assert.ok(schema['x-jsonld-extra-terms']);
  });

  it("`schema --protocol V` prints that version's effective annotated schema in the seed's shape", async () => {
    const result = await runCli(['schema', '--protocol', '2026-07-28']);
    assert.equal(result.code, 0, result.stderr);
    const schema = JSON.parse(result.stdout);
    assert.equal(schema.$defs, undefined);
    assert.equal(schema.definitions.InitializeRequest, undefined, '2026-07-28 has no initialize');
    const discover = schema.definitions.DiscoverRequest;
    assert.match(discover.allOf[0].$ref, /json-rpc\/schema\.yaml#Request$/);
    assert.equal(discover.properties.jsonrpc, undefined, 'the JSON-RPC anchor describes jsonrpc and id');
    assert.equal(discover.properties.params['x-jsonld-id'], 'jrpc:hasParameters');
    // Carried from the seed through 2025-11-25's split of params into CallToolRequestParams.
    assert.equal(
      schema.definitions.CallToolRequestParams.properties.name['x-jsonld-id'],
      'http://modelcontextprotocol.io/ontology#hasName',
    );
    const seed = JSON.parse((await runCli(['schema', '--protocol', '2026-07-28', '--seed'])).stdout);
    assert.equal(
      seed.definitions.DiscoverResult.properties.ttlMs['x-jsonld-id'],
      undefined,
      '--seed: before the annotation file',
    );
    assert.equal(schema.definitions.DiscoverResult.properties.ttlMs['x-jsonld-id'], 'mcp:hasTtlMs');
    assert.deepEqual(
      JSON.parse((await runCli(['schema', '--protocol', '2025-06-18'])).stdout),
      JSON.parse((await runCli(['schema'])).stdout),
    );
  });
});
