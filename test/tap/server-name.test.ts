import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverInfoName, serverNameOfCommand } from '../../src/tap/server-name.js';

describe('server names: what a session is called when nobody says', () => {
  it('names a server by what its command runs, without the runner, its options or the version', () => {
    const cases: [string, string[], string][] = [
      ['npx', ['-y', '@modelcontextprotocol/server-memory'], '@modelcontextprotocol/server-memory'],
      [
        'npx',
        ['-y', '@modelcontextprotocol/server-filesystem@2025.8.21', '/home/me'],
        '@modelcontextprotocol/server-filesystem',
      ],
      ['npx', ['--package=@acme/mcp', 'acme-mcp'], '@acme/mcp'],
      ['/usr/bin/npm', ['exec', '--', 'mcp-server-git@latest'], 'mcp-server-git'],
      ['pnpm', ['dlx', 'weather-mcp'], 'weather-mcp'],
      ['uvx', ['mcp-server-time', '--local-timezone', 'UTC'], 'mcp-server-time'],
      ['uvx', ['--from', 'mcp-server-git==0.6', 'mcp-server-git'], 'mcp-server-git'],
      ['uv', ['tool', 'run', 'mcp-server-fetch'], 'mcp-server-fetch'],
      ['python3', ['-m', 'mcp_server_time'], 'mcp_server_time'],
      ['python3', ['-c', 'import x'], 'python3'],
      ['node', ['-e', 'process.exit(3)'], 'node'],
      [
        'docker',
        ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server:v1'],
        'ghcr.io/github/github-mcp-server',
      ],
      ['env', ['DEBUG=1', 'npx', '-y', 'server-x'], 'server-x'],
      ['my-server', ['--stdio'], 'my-server'],
    ];
    for (const [command, args, name] of cases)
      assert.equal(serverNameOfCommand(command, args, '/'), name, `${command} ${args.join(' ')}`);
  });

  it("names a script by its package's name, else by its file or, for an index.js, its folder", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpld-name-'));
    mkdirSync(path.join(dir, 'weather', 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'weather', 'package.json'), JSON.stringify({ name: 'acme-weather' }));
    assert.equal(serverNameOfCommand('node', ['weather/dist/index.js'], dir), 'acme-weather');
    mkdirSync(path.join(dir, 'plain', 'tools', 'build'), { recursive: true });
    assert.equal(serverNameOfCommand('node', [path.join(dir, 'plain', 'tools', 'build', 'index.js')], dir), 'tools');
    assert.equal(serverNameOfCommand('python3', ['plain/notes_server.py'], dir), 'notes_server');
  });

  it("reads the name a server gives itself in its answer: initialize's serverInfo or a 2026-07-28 result's _meta", () => {
    assert.equal(
      serverInfoName({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'everything', version: '1' } } }),
      'everything',
    );
    assert.equal(
      serverInfoName({
        jsonrpc: '2.0',
        id: 1,
        result: { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'v2', version: '2' } } },
      }),
      'v2',
    );
    assert.equal(serverInfoName({ jsonrpc: '2.0', id: 1, result: {} }), undefined);
    assert.equal(serverInfoName({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } }), undefined);
  });
});
