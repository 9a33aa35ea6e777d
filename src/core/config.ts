// The one place that reads configuration: command-line flags first, then environment variables, then defaults.
// Nothing else in mcp-ld reads process.env.

export interface ServiceConfig {
  host: string;
  port: number;
  /** Data directory of the embedded store; memory-only when absent. */
  dataDir?: string;
  /** URL of a remote SPARQL 1.1 store; the embedded store when absent. */
  storeUrl?: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  logLevel: string;
}

export type Environment = Record<string, string | undefined>;

export interface ServiceFlags {
  host?: string | undefined;
  port?: string | undefined;
  data?: string | undefined;
  store?: string | undefined;
}

export const environmentVariables = {
  MCPLD_HOST: 'address the service listens on (default 127.0.0.1)',
  MCPLD_PORT: 'port the service listens on (default 8080)',
  MCPLD_DATA: 'data directory of the embedded store (default: memory only)',
  MCPLD_STORE: 'URL of a remote SPARQL 1.1 store (default: the embedded store)',
  MCPLD_BODY_LIMIT: 'largest accepted request body in bytes (default 10485760)',
  MCPLD_LOG_LEVEL: 'fastify log level (default info)',
} as const;

export class ConfigError extends Error {}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`port must be an integer from 0 to 65535, not "${value}"`);
  return port;
}

function parsePositiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0) throw new ConfigError(`${name} must be a positive integer, not "${value}"`);
  return number;
}

export function readServiceConfig(flags: ServiceFlags, env: Environment = process.env): ServiceConfig {
  const config: ServiceConfig = {
    host: flags.host ?? env['MCPLD_HOST'] ?? '127.0.0.1',
    port: parsePort(flags.port ?? env['MCPLD_PORT'] ?? '8080'),
    bodyLimit: parsePositiveInteger('MCPLD_BODY_LIMIT', env['MCPLD_BODY_LIMIT'] ?? String(10 * 1024 * 1024)),
    logLevel: env['MCPLD_LOG_LEVEL'] ?? 'info',
  };
  const dataDir = flags.data ?? env['MCPLD_DATA'];
  const storeUrl = flags.store ?? env['MCPLD_STORE'];
  if (dataDir && storeUrl) throw new ConfigError('choose either a data directory (--data) or a remote store (--store), not both');
  if (dataDir) config.dataDir = dataDir;
  if (storeUrl) config.storeUrl = storeUrl;
  return config;
}
