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
    assert.match(result.stderr, /Unknown option '--bogus'/);
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
});
