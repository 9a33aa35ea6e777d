import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from 'n3';
import { runCli } from '../helpers/run-cli.js';
import { trafficFile } from '../helpers/corpus.js';

const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

describe('cli: convert and lower', () => {
  it('`convert` writes N-Quads on stdout and a summary on stderr', async () => {
    const result = await runCli(['convert', trafficFile]);
    assert.equal(result.code, 0, result.stderr);
    const quads = new Parser({ format: 'N-Quads' }).parse(result.stdout);
    assert.ok(quads.length > 4000);
    // The capture speaks 2025-11-25 (its initialize says so): tasks/* are methods of that version, not unknown ones.
    assert.match(
      result.stderr,
      /^mcp-ld convert: 220 messages in 1 session → \d+ quads; 1 invalid, 2 unknown methods, 0 failed lines; protocol 2025-11-25 \(220\)$/m,
    );
  });

  it('`convert | lower` gives back the capture records', async () => {
    const converted = await runCli(['convert', trafficFile, '--quiet']);
    const lowered = await runCli(['lower'], { input: converted.stdout });
    assert.equal(lowered.code, 0, lowered.stderr);
    const original = (await import('node:fs'))
      .readFileSync(trafficFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepStrictEqual(
      lowered.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
      original,
    );
  });

  it('reads stdin, a batch, and a pretty-printed message', async () => {
    const batch = await runCli(['convert', '-', '--session', 'b'], {
      input: `[${ping},{"jsonrpc":"2.0","id":1,"result":{}}]`,
    });
    assert.equal(batch.code, 0, batch.stderr);
    assert.match(
      batch.stdout,
      /<urn:mcp-ld:session\/b\/message\/2> <https:\/\/w3id.org\/mcp-ld\/ns#respondsTo> <urn:mcp-ld:session\/b\/message\/1>/,
    );
    const pretty = await runCli(['convert', '--session', 'p'], { input: JSON.stringify(JSON.parse(ping), null, 2) });
    assert.equal(pretty.code, 0, pretty.stderr);
    assert.match(pretty.stdout, /PingRequest/);
  });

  it('gives the same session (and so the same quads) for the same plain input, and honours --base', async () => {
    const a = await runCli(['convert'], { input: ping });
    const b = await runCli(['convert'], { input: ping });
    assert.equal(a.stdout, b.stdout);
    const based = await runCli(['convert', '--base', 'https://example.org/mcp/', '--session', 's'], { input: ping });
    assert.match(based.stdout, /<https:\/\/example.org\/mcp\/session\/s\/message\/1>/);
  });

  it('reports a bad line with its number, skips it, keeps the valid lines and exits 1', async () => {
    const input = [ping, '{"jsonrpc":"2.0",', '{"hello":"world"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}'].join(
      '\n',
    );
    const result = await runCli(['convert', '--session', 's'], { input });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^line 2: Malformed JSON: .*line 2, column \d+/m);
    assert.match(result.stderr, /^line 3: Not an MCP message: a JSON-RPC message has "method"/m);
    assert.match(result.stderr, /2 messages in 1 session .* 2 failed lines/);
    assert.match(result.stdout, /session\/s\/message\/2>/);
  });

  it('--strict stops at the first bad line, and rejects an invalid message naming it and the failing path', async () => {
    const bad = await runCli(['convert', '--strict'], { input: `${ping}\nnot json\n${ping}` });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Malformed JSON: .*\(line 2\)/);
    const invalid = await runCli(['convert', '--strict'], {
      input: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}',
    });
    assert.equal(invalid.code, 1);
    assert.match(
      invalid.stderr,
      /Invalid MCP message: line 1: CallToolRequest is invalid at \/params: \/params must have required property 'name'/,
    );
    assert.equal(invalid.stdout, '');
  });

  it('reports a line that is not UTF-8 with the byte, and a key given twice with its place, never changing either silently', async () => {
    const first = Buffer.from(`${ping}\n{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`);
    const input = Buffer.concat([
      first,
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`"}}\n{"jsonrpc":"2.0","id":2,"method":"ping","id":3}\n{"jsonrpc":"2.0","id":4,"method":"ping"}\n`),
    ]);
    const result = await runCli(['convert', '--session', 's'], { input });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(`^line 2: Invalid UTF-8: invalid UTF-8 at byte ${first.length} \\(0xC3\\)`, 'm'),
    );
    assert.match(
      result.stderr,
      /^line 3: Duplicate key: the key "id" is given twice in one object, the second time at line 3, column 41: /m,
    );
    assert.match(result.stderr, /2 messages in 1 session .* 2 failed lines/);
    assert.ok(!result.stdout.includes('\uFFFD') && !result.stdout.includes('\\uFFFD'), 'no replacement character');
    assert.match(
      result.stdout,
      /<urn:mcp-ld:session\/s\/message\/2> <http:\/\/json-rpc.org\/ontology#hasId> <urn:mcp-ld:session\/s\/id\/c2s\/n\/4>/,
      'the line after them is read',
    );
  });

  it('refuses nesting deeper than the limit with a clear error', async () => {
    const deep =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":' +
      '{"a":'.repeat(200) +
      '1' +
      '}'.repeat(200) +
      '}}';
    const result = await runCli(['convert'], { input: deep });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Nesting too deep: JSON nests deeper than 128 levels/);
  });

  it('writes TriG, Turtle and JSON-LD that parse back to the same triples', async () => {
    const nquads = new Parser({ format: 'N-Quads' }).parse((await runCli(['convert', trafficFile, '--quiet'])).stdout);
    const trig = new Parser({ format: 'TriG' }).parse(
      (await runCli(['convert', trafficFile, '--quiet', '--format', 'trig'])).stdout,
    );
    assert.equal(trig.length, nquads.length);
    const turtle = new Parser({ format: 'Turtle' }).parse(
      (await runCli(['convert', trafficFile, '--quiet', '--format', 'turtle'])).stdout,
    );
    assert.equal(turtle.length, nquads.length);
    const jsonldOut = await runCli(['convert', '--format', 'jsonld', '--session', 's'], { input: ping });
    assert.equal(jsonldOut.code, 0, jsonldOut.stderr);
    const document = JSON.parse(jsonldOut.stdout);
    assert.ok(document['@context'], 'compacted with a context');
  });

  it('`lower` reports a bad N-Quads line with its number and still lowers the rest', async () => {
    const converted = (await runCli(['convert', '--session', 's', '--quiet'], { input: ping })).stdout;
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-'));
    const file = path.join(dir, 'in.nq');
    writeFileSync(file, `${converted}this is not a quad\n`);
    const result = await runCli(['lower', file]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^line ${converted.trim().split('\n').length + 1}: `, 'm'));
    assert.deepEqual(JSON.parse(result.stdout), { dir: 'c2s', session: 's', msg: JSON.parse(ping) });
  });

  it('`lower` refuses N-Quads that are not UTF-8, naming the byte and its line, rather than lower U+FFFD', async () => {
    const converted = Buffer.from((await runCli(['convert', '--session', 's', '--quiet'], { input: ping })).stdout);
    const at = converted.indexOf('"ping"') + 3;
    const input = Buffer.concat([converted.subarray(0, at), Buffer.from([0xe9]), converted.subarray(at)]);
    const result = await runCli(['lower'], { input });
    assert.equal(result.code, 1);
    const line = converted.subarray(0, at).toString().split('\n').length;
    assert.equal(
      result.stderr,
      `mcp-ld lower: Invalid UTF-8: invalid UTF-8 at byte ${at} (0xE9): the input must be UTF-8, and mcp-ld does not replace what is not (line ${line})\n`,
    );
    assert.equal(result.stdout, '');
  });

  it('`--protocol V` lifts plain messages that declare no version by V, and names an unknown version', async () => {
    const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: {} } });
    const seed = await runCli(['convert', '--session', 's'], { input: discover });
    assert.match(seed.stderr, /1 unknown method, 0 failed lines; protocol 2025-06-18 \(1\)$/m);
    const current = await runCli(['convert', '--session', 's', '--protocol', '2026-07-28'], { input: discover });
    assert.equal(current.code, 0, current.stderr);
    assert.match(current.stderr, /0 unknown methods, 0 failed lines; protocol 2026-07-28 \(1\)$/m);
    assert.match(current.stdout, /<http:\/\/modelcontextprotocol\.io\/ontology#DiscoverRequest>/);
    assert.match(current.stdout, /<https:\/\/w3id\.org\/mcp-ld\/ns#schemaVersion> "2026-07-28"/);
    const unknown = await runCli(['convert', '--protocol', '2026-13-01'], { input: discover });
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /--protocol 2026-13-01: not a protocol version mcp-ld knows; known versions: 2024-11-05, /,
    );
  });
});
