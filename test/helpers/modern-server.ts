// A small MCP server of protocol 2026-07-28 on the v2 SDK (`@modelcontextprotocol/server` 2.4.0), served over
// node:http through the SDK's own `createMcpHandler`: tools (one streaming progress and a log over SSE, one asking
// for input by a multi-round-trip, one that changes the tool list), a prompt, a resource and `subscriptions/listen`.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  inputRequired,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface ModernServer {
  url: string;
  close(): Promise<void>;
}

function buildServer(handler: () => McpHttpHandler): McpServer {
  const server = new McpServer({ name: 'mcp-ld-modern-test', version: '2.4.0' }, { capabilities: { logging: {} } });
  server.registerTool(
    'echo',
    { description: 'Echoes its message', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }),
  );
  server.registerTool(
    'count',
    { description: 'Counts to n, with progress and a log line', inputSchema: z.object({ n: z.number().int() }) },
    async ({ n }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: n },
          });
      }
      await ctx.mcpReq.log('info', `counted to ${n}`);
      return { content: [{ type: 'text', text: `counted to ${n}` }] };
    },
  );
  const confirmation = z.object({ confirm: z.boolean() });
  server.registerTool(
    'delete-note',
    { description: 'Deletes a note once the user confirms', inputSchema: z.object({ note: z.string() }) },
    async ({ note }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Delete ${note}?`, requestedSchema: confirmation }),
          },
        });
      }
      return { content: [{ type: 'text', text: answer['confirm'] === true ? `deleted ${note}` : `kept ${note}` }] };
    },
  );
  server.registerTool(
    'touch',
    { description: 'Announces that the tool list changed', inputSchema: z.object({}) },
    async () => {
      handler().notify.toolsChanged();
      return { content: [{ type: 'text', text: 'touched' }] };
    },
  );
  server.registerPrompt(
    'greeting',
    { description: 'A greeting', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}` } }],
    }),
  );
  server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'The notes of the test server.' }],
  }));
  return server;
}

/**
 * Serves a fetch-shaped handler on node:http: the body read whole, the answer streamed, a client that goes away aborts.
 */
function serveFetch(fetchHandler: (request: Request) => Promise<Response>) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const aborted = new AbortController();
    response.on('close', () => aborted.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string') headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetchHandler(
      new Request(`http://${request.headers.host}${request.url}`, {
        method: request.method!,
        headers,
        signal: aborted.signal,
        ...(body ? { body } : {}),
      }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body) return void response.end();
    const reader = answer.body.getReader();
    response.on('close', () => void reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        response.write(value);
      }
    } catch {
      // the client went away
    }
    response.end();
  };
}

export async function startModernServer(): Promise<ModernServer> {
  let handler: McpHttpHandler;
  handler = createMcpHandler(() => buildServer(() => handler), { legacy: 'reject', keepAliveMs: 0 });
  const serve = serveFetch(handler.fetch);
  const server = http.createServer((request, response) => {
    serve(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
