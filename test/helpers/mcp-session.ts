// A real MCP session: the official SDK client against the reference "everything" server, directly or through a
// wrapper command (the tap). Returns what the client saw, so runs with and without the wrapper can be compared.
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

const require = createRequire(import.meta.url);
export const everythingServer = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

interface SessionTranscript {
  tools: string[];
  calls: { name: string; result: unknown }[];
  prompt: unknown;
  resource: unknown;
}

/** The tool calls the session makes, in order (names repeat on purpose: per-tool counts are checked). */
export const toolCalls: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'echo', arguments: { message: 'Hello through the tap' } },
  { name: 'get-sum', arguments: { a: 19, b: 23 } },
  { name: 'echo', arguments: { message: 'again' } },
  { name: 'get-sum', arguments: { a: 1, b: 2 } },
  { name: 'echo', arguments: { message: 'third' } },
];

export function runSession(command: string, args: string[]): Promise<SessionTranscript> {
  return runSessionOver(new StdioClientTransport({ command, args, stderr: 'ignore' }));
}

export function runHttpSession(url: string): Promise<SessionTranscript> {
  return runSessionOver(new StreamableHTTPClientTransport(new URL(url)));
}

async function runSessionOver(transport: Transport): Promise<SessionTranscript> {
  const client = new Client({ name: 'mcp-ld-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    const calls = [];
    for (const call of toolCalls) calls.push({ name: call.name, result: await client.callTool(call) });
    const prompt = await client.getPrompt({ name: 'simple-prompt', arguments: {} });
    const resource = await client.readResource({ uri: 'demo://resource/static/document/features.md' });
    return { tools, calls, prompt, resource };
  } finally {
    await client.close();
  }
}
