// Real MCP sessions over each HTTP transport generation, with the SDK that speaks it: HTTP+SSE with the SDK 1.0.4
// client (2024-11-05), Streamable HTTP with the SDK 1.11.2 client (2025-03-26: Mcp-Session-Id, the GET stream, DELETE),
// and Streamable HTTP of 2026-07-28 with the v2 client 2.4.0. Each returns what the client saw, so that runs with and
// without the proxy can be compared, and the ids the transport named, so that the capture can be checked against them.
import { EventSource } from 'eventsource';
import { Client as Client104 } from 'sdk-1.0.4/client/index.js';
import { SSEClientTransport as SSEClientTransport104 } from 'sdk-1.0.4/client/sse.js';
import { CreateMessageRequestSchema as CreateMessageRequestSchema104 } from 'sdk-1.0.4/types.js';
import { Client as Client1112 } from 'sdk-1.11.2/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransport1112 } from 'sdk-1.11.2/client/streamableHttp.js';
import { CreateMessageRequestSchema as CreateMessageRequestSchema1112 } from 'sdk-1.11.2/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

// SDK 1.0.4's SSE client uses the platform's EventSource, which Node 20 lacks: the SDK's own advice is this package.
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

interface Transcript {
  tools: string[];
  results: unknown[];
  progress: number[];
}

const sampled = {
  model: 'mcp-ld-test-model',
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'a sampled answer' },
};

/**
 * The session both 2025.5.12 "everything" modes serve: lists, calls (progress, sampling back to the client), a prompt,
 * a resource.
 */
async function everythingScenario(client: Client104 | Client1112): Promise<Transcript> {
  const progress: number[] = [];
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  const results: unknown[] = [];
  results.push(await client.callTool({ name: 'echo', arguments: { message: 'through the proxy' } }));
  results.push(await client.callTool({ name: 'add', arguments: { a: 19, b: 23 } }));
  results.push(
    await client.callTool({ name: 'longRunningOperation', arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (p: { progress: number }) => progress.push(p.progress),
    }),
  );
  results.push(await client.callTool({ name: 'sampleLLM', arguments: { prompt: 'say something', maxTokens: 10 } }));
  results.push(await client.getPrompt({ name: 'simple_prompt' }));
  results.push(await client.readResource({ uri: 'test://static/resource/1' }));
  return { tools, results, progress };
}

/** 2024-11-05's HTTP+SSE: GET `sseUrl`, then POSTs to the endpoint it names. `sessionId`: the endpoint's. */
export async function runLegacySseSession(
  sseUrl: string,
): Promise<Transcript & { sessionId: string | null; endpoint: string }> {
  const client = new Client104({ name: 'mcp-ld-test-sse', version: '1.0.4' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema104, async () => sampled);
  const transport = new SSEClientTransport104(new URL(sseUrl));
  await client.connect(transport);
  try {
    const endpoint = (transport as unknown as { _endpoint: URL })._endpoint;
    return {
      ...(await everythingScenario(client)),
      sessionId: endpoint.searchParams.get('sessionId'),
      endpoint: endpoint.href,
    };
  } finally {
    await client.close();
  }
}

/** Streamable HTTP of 2025-03-26: the server names the session (Mcp-Session-Id); the client ends it with DELETE. */
export async function runStreamable2025Session(url: string): Promise<Transcript & { sessionId: string | undefined }> {
  const client = new Client1112(
    { name: 'mcp-ld-test-streamable', version: '1.11.2' },
    { capabilities: { sampling: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema1112, async () => sampled);
  const transport = new StreamableHTTPClientTransport1112(new URL(url));
  await client.connect(transport);
  try {
    const sessionId = transport.sessionId;
    const transcript = await everythingScenario(client);
    await transport.terminateSession();
    return { ...transcript, sessionId };
  } finally {
    await client.close();
  }
}

/**
 * Streamable HTTP of 2026-07-28 against test/helpers/modern-server.ts: discovery, a listen stream, calls (progress,
 * a multi-round-trip elicitation, a tool-list change arriving on the listen stream), a prompt, a resource, two calls
 * at once. `clientName` names the client (its clientInfo).
 */
export async function runModernSession(
  url: string,
  clientName = 'mcp-ld-test-modern',
): Promise<Transcript & { listChanged: number }> {
  const client = new Client(
    { name: clientName, version: '2.4.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  let listChanged = 0;
  let changed: () => void = () => {};
  const changedOnce = new Promise<void>((resolve) => (changed = resolve));
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanged += 1;
    changed();
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const progress: number[] = [];
  try {
    const subscription = await client.listen({ toolsListChanged: true });
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    const results: unknown[] = [];
    results.push(await client.callTool({ name: 'echo', arguments: { message: `from ${clientName}` } }));
    results.push(
      await client.callTool({ name: 'count', arguments: { n: 3 } }, { onprogress: (p) => progress.push(p.progress) }),
    );
    results.push(await client.callTool({ name: 'delete-note', arguments: { note: 'groceries' } }));
    results.push(await client.callTool({ name: 'touch', arguments: {} }));
    await changedOnce;
    results.push(await client.getPrompt({ name: 'greeting', arguments: { name: clientName } }));
    results.push(await client.readResource({ uri: 'notes://readme' }));
    results.push(
      ...(await Promise.all(
        [1, 2].map((i) => client.callTool({ name: 'echo', arguments: { message: `at once ${i}` } })),
      )),
    );
    await subscription.close();
    return { tools, results, progress, listChanged };
  } finally {
    await client.close();
  }
}
