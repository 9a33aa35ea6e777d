// Starts `mcp-ld serve` as a real process on a free port and resolves with its address once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { cliPath } from './run-cli.js';

export interface Service {
  child: ChildProcess;
  url: string;
}

export function startService(args: string[] = [], env: Record<string, string> = {}): Promise<Service> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], {
      env: { ...process.env, MCPLD_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      seen += text;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`mcp-ld serve exited (${code}) before it listened: ${seen}`)));
  });
}

/** The rows of a SELECT asked of a service (POST /sparql, SPARQL JSON results): each variable's value by its name. */
export async function selectRows<Variable extends string>(
  service: Service,
  query: string,
): Promise<Record<Variable, { value: string }>[]> {
  const response = await fetch(`${service.url}/sparql`, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
    body: query,
  });
  return ((await response.json()) as { results: { bindings: Record<Variable, { value: string }>[] } }).results.bindings;
}

/** Runs `body` with a service started as startService starts it, and stops it (SIGTERM) after, whatever happens. */
export async function withService<T>(
  args: string[],
  env: Record<string, string>,
  body: (service: Service) => Promise<T>,
): Promise<T> {
  const service = await startService(args, env);
  try {
    return await body(service);
  } finally {
    service.child.kill('SIGTERM');
  }
}
