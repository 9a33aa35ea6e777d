// The one place that reads configuration: command-line flags first, then environment variables, then defaults.
// Nothing else in mcp-ld reads process.env.
import { homedir } from 'node:os';

/** Which store to open and its limits (see src/store/open-store.ts). */
export interface StoreConfig {
  /** Data directory of the embedded store; memory-only when absent. */
  dataDir?: string;
  /** URL of a remote SPARQL 1.1 store (its query endpoint); the embedded store when absent. */
  storeUrl?: string;
  /** The remote store's SPARQL Update endpoint (default: storeUrl). */
  storeUpdateUrl?: string;
  /** The remote store's Graph Store Protocol endpoint (default: storeUrl). */
  storeGraphsUrl?: string;
  /** Credentials for the remote store (HTTP Digest or Basic, as the store asks). */
  storeUser?: string;
  storePassword?: string;
  /** Most quads the embedded store takes before it refuses ingests (WebAssembly caps a process at 4 GiB). */
  maxQuads: number;
  /** Default time limit of a query, in milliseconds. */
  queryTimeoutMs: number;
  /** Largest literal (bytes of its lexical form) the remote store is sent. */
  maxLiteralBytes: number;
  /** Largest SPARQL query or update text, in bytes. */
  maxQueryBytes: number;
  /** Deepest nesting of braces, parentheses and brackets in a SPARQL text. */
  maxQueryDepth: number;
  /** Most rows (SELECT), solutions (CONSTRUCT) or triples (DESCRIBE) a query may answer. */
  maxResultRows: number;
  /** Most bytes of a query's results, as the store serializes them. */
  maxResultBytes: number;
  /** Most queries that wait for the embedded store while one runs. */
  maxQueued: number;
  /** How long a background owner of a data directory (`mcp-ld own`) stays with no process connected. */
  ownerIdleMs: number;
  /** How long a process waits for a data directory's owner to answer (it may be replaying a large journal). */
  ownerWaitMs: number;
  /** The list of data directories owners have held, which `mcp-ld status` reports on. */
  directoryList: string;
}

export interface ServiceConfig extends StoreConfig {
  host: string;
  port: number;
  /** Largest accepted request body, in bytes (NDJSON ingestion: the largest line; the stream may be any length). */
  bodyLimit: number;
  /** How long a request body may stop arriving (no byte of it) before the request is answered 408 and closed. */
  bodyTimeoutMs: number;
  logLevel: string;
  /** Bearer token that write requests (ingest, delete, SPARQL Update) must present; writes open to all when absent,
   * deletes and updates refused. */
  writeToken?: string;
  /** Origins allowed by CORS (`*` for any); CORS off when empty. */
  corsOrigins: string[];
  /** Host names (besides loopback and the listen address) requests may name in `Host`, and writes in `Origin`. */
  allowedHosts: string[];
}

export type Environment = Record<string, string | undefined>;

interface ServiceFlags {
  host?: string | undefined;
  port?: string | undefined;
  data?: string | undefined;
  store?: string | undefined;
}

/** The store limits when nothing sets them: here once, for the configuration and for stores opened without it. */
export const storeDefaults = {
  maxQuads: 5_000_000,
  queryTimeoutMs: 30_000,
  maxLiteralBytes: 8 * 1024 * 1024,
  maxQueued: 8,
} as const;

export const environmentVariables = {
  MCPLD_HOST: 'address the service listens on (default 127.0.0.1)',
  MCPLD_PORT: 'port the service listens on (default 8080)',
  MCPLD_DATA: 'data directory of the embedded store (default: memory only)',
  MCPLD_STORE: 'URL of a remote SPARQL 1.1 store (default: the embedded store)',
  MCPLD_STORE_UPDATE: "the remote store's SPARQL Update endpoint (default: MCPLD_STORE)",
  MCPLD_STORE_GRAPHS: "the remote store's Graph Store Protocol endpoint (default: MCPLD_STORE)",
  MCPLD_STORE_USER: 'user name for the remote store (HTTP Digest or Basic)',
  MCPLD_STORE_PASSWORD: 'password for the remote store',
  MCPLD_MAX_QUADS: `most quads the embedded store holds before it refuses ingests (default ${storeDefaults.maxQuads})`,
  MCPLD_QUERY_TIMEOUT: `default query time limit in milliseconds (default ${storeDefaults.queryTimeoutMs})`,
  MCPLD_MAX_LITERAL: `largest literal in bytes sent to a remote store (default ${storeDefaults.maxLiteralBytes})`,
  MCPLD_MAX_QUERY_BYTES: 'largest SPARQL query or update in bytes (default 1048576)',
  MCPLD_MAX_QUERY_DEPTH: 'deepest nesting of braces, parentheses and brackets in a SPARQL query or update (default 64)',
  MCPLD_MAX_RESULT_ROWS:
    'most rows (SELECT), solutions (CONSTRUCT) or triples (DESCRIBE) a query may answer (default 100000)',
  MCPLD_MAX_RESULT_BYTES: 'most bytes of results a query may answer (default 67108864)',
  MCPLD_MAX_QUEUED: `most queries that may wait for the embedded store while one runs; one more is refused with 429 and Retry-After (default ${storeDefaults.maxQueued})`,
  MCPLD_BODY_LIMIT: 'largest accepted request body in bytes (default 10485760)',
  MCPLD_BODY_TIMEOUT_MS:
    'how long a request body may stop arriving, in milliseconds, before it is answered 408 and closed (default 30000)',
  MCPLD_LOG_LEVEL: 'fastify log level (default info)',
  MCPLD_WRITE_TOKEN:
    'bearer token required by writes (ingest, DELETE /sessions, SPARQL Update); without it ingest is open and deletes and updates are refused',
  MCPLD_CORS_ORIGINS: 'comma-separated origins allowed by CORS, or * (default: CORS off)',
  MCPLD_ALLOWED_HOSTS:
    'comma-separated host names requests may be addressed to (Host) and writes may come from (Origin), besides localhost, the loopback addresses and the listen address',
  MCPLD_OWNER_IDLE_MS:
    'how long the background owner of a data directory stays after the last process using it is gone, in milliseconds (default 60000)',
  MCPLD_OWNER_WAIT_MS:
    "how long a command waits for a data directory's owner to answer, in milliseconds (default 60000)",
  MCPLD_SPOOL: 'where `mcp-ld tap` keeps records while the store is unavailable (default ~/.cache/mcp-ld/spool)',
  MCPLD_TAP_FLUSH_MS: 'how long `mcp-ld tap` waits at exit for the store to take what is left (default 10000)',
} as const;

export type EnvironmentVariable = keyof typeof environmentVariables;

/** What readStoreConfig reads: every command that opens a store. */
export const storeVariables: readonly EnvironmentVariable[] = [
  'MCPLD_DATA',
  'MCPLD_STORE',
  'MCPLD_STORE_UPDATE',
  'MCPLD_STORE_GRAPHS',
  'MCPLD_STORE_USER',
  'MCPLD_STORE_PASSWORD',
  'MCPLD_MAX_QUADS',
  'MCPLD_QUERY_TIMEOUT',
  'MCPLD_MAX_LITERAL',
  'MCPLD_MAX_QUERY_BYTES',
  'MCPLD_MAX_QUERY_DEPTH',
  'MCPLD_MAX_RESULT_ROWS',
  'MCPLD_MAX_RESULT_BYTES',
  'MCPLD_MAX_QUEUED',
  'MCPLD_OWNER_IDLE_MS',
  'MCPLD_OWNER_WAIT_MS',
];

/** What readServiceConfig reads besides the store's: `mcp-ld serve`. */
export const serviceVariables: readonly EnvironmentVariable[] = [
  'MCPLD_HOST',
  'MCPLD_PORT',
  'MCPLD_BODY_LIMIT',
  'MCPLD_BODY_TIMEOUT_MS',
  'MCPLD_LOG_LEVEL',
  'MCPLD_WRITE_TOKEN',
  'MCPLD_CORS_ORIGINS',
  'MCPLD_ALLOWED_HOSTS',
];

/** What readTapConfig reads: `mcp-ld tap` and `mcp-ld proxy`. */
export const tapVariables: readonly EnvironmentVariable[] = ['MCPLD_SPOOL', 'MCPLD_TAP_FLUSH_MS', 'MCPLD_WRITE_TOKEN'];

export class ConfigError extends Error {}

/** Digits only: Number() would take "" and " " as 0, "0x50" as 80 and "1e3" as 1000. */
const decimal = /^[0-9]+$/;

function parsePort(value: string): number {
  const port = decimal.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`port must be an integer from 0 to 65535, not "${value}"`);
  return port;
}

function parsePositiveInteger(name: string, value: string): number {
  const number = decimal.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new ConfigError(`${name} must be a positive integer, not "${value}"`);
  return number;
}

export function readServiceConfig(flags: ServiceFlags, env: Environment = process.env): ServiceConfig {
  return {
    host: flags.host ?? env['MCPLD_HOST'] ?? '127.0.0.1',
    port: parsePort(flags.port ?? env['MCPLD_PORT'] ?? '8080'),
    bodyLimit: parsePositiveInteger('MCPLD_BODY_LIMIT', env['MCPLD_BODY_LIMIT'] ?? String(10 * 1024 * 1024)),
    bodyTimeoutMs: parsePositiveInteger('MCPLD_BODY_TIMEOUT_MS', env['MCPLD_BODY_TIMEOUT_MS'] ?? '30000'),
    logLevel: env['MCPLD_LOG_LEVEL'] ?? 'info',
    corsOrigins: (env['MCPLD_CORS_ORIGINS'] ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    allowedHosts: (env['MCPLD_ALLOWED_HOSTS'] ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    ...(env['MCPLD_WRITE_TOKEN'] ? { writeToken: env['MCPLD_WRITE_TOKEN'] } : {}),
    ...readStoreConfig(flags, env),
  };
}

function parseUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL, not "${value}"`);
  if (url.username || url.password)
    throw new ConfigError(`${name}: give the credentials in MCPLD_STORE_USER and MCPLD_STORE_PASSWORD, not in the URL`);
  return url.href;
}

/** The store settings: `--data DIR` / MCPLD_DATA or `--store URL` / MCPLD_STORE, credentials and limits. */
export function readStoreConfig(
  flags: { data?: string | undefined; store?: string | undefined },
  env: Environment = process.env,
): StoreConfig {
  const config: StoreConfig = {
    maxQuads: parsePositiveInteger('MCPLD_MAX_QUADS', env['MCPLD_MAX_QUADS'] ?? String(storeDefaults.maxQuads)),
    queryTimeoutMs: parsePositiveInteger(
      'MCPLD_QUERY_TIMEOUT',
      env['MCPLD_QUERY_TIMEOUT'] ?? String(storeDefaults.queryTimeoutMs),
    ),
    maxLiteralBytes: parsePositiveInteger(
      'MCPLD_MAX_LITERAL',
      env['MCPLD_MAX_LITERAL'] ?? String(storeDefaults.maxLiteralBytes),
    ),
    maxQueryBytes: parsePositiveInteger('MCPLD_MAX_QUERY_BYTES', env['MCPLD_MAX_QUERY_BYTES'] ?? '1048576'),
    maxQueryDepth: parsePositiveInteger('MCPLD_MAX_QUERY_DEPTH', env['MCPLD_MAX_QUERY_DEPTH'] ?? '64'),
    maxResultRows: parsePositiveInteger('MCPLD_MAX_RESULT_ROWS', env['MCPLD_MAX_RESULT_ROWS'] ?? '100000'),
    maxResultBytes: parsePositiveInteger(
      'MCPLD_MAX_RESULT_BYTES',
      env['MCPLD_MAX_RESULT_BYTES'] ?? String(64 * 1024 * 1024),
    ),
    maxQueued: parsePositiveInteger('MCPLD_MAX_QUEUED', env['MCPLD_MAX_QUEUED'] ?? String(storeDefaults.maxQueued)),
    ownerIdleMs: parsePositiveInteger('MCPLD_OWNER_IDLE_MS', env['MCPLD_OWNER_IDLE_MS'] ?? '60000'),
    ownerWaitMs: parsePositiveInteger('MCPLD_OWNER_WAIT_MS', env['MCPLD_OWNER_WAIT_MS'] ?? '60000'),
    directoryList: `${cacheDirectory(env)}/mcp-ld/data-directories`,
  };
  const dataDir = flags.data ?? env['MCPLD_DATA'];
  const storeUrl = flags.store ?? env['MCPLD_STORE'];
  if (dataDir && storeUrl)
    throw new ConfigError('choose either a data directory (--data) or a remote store (--store), not both');
  if (dataDir) config.dataDir = dataDir;
  if (storeUrl) {
    config.storeUrl = parseUrl('--store / MCPLD_STORE', storeUrl);
    const update = env['MCPLD_STORE_UPDATE'];
    const graphs = env['MCPLD_STORE_GRAPHS'];
    if (update) config.storeUpdateUrl = parseUrl('MCPLD_STORE_UPDATE', update);
    if (graphs) config.storeGraphsUrl = parseUrl('MCPLD_STORE_GRAPHS', graphs);
    const user = env['MCPLD_STORE_USER'];
    const password = env['MCPLD_STORE_PASSWORD'];
    if ((user === undefined) !== (password === undefined))
      throw new ConfigError('set both MCPLD_STORE_USER and MCPLD_STORE_PASSWORD, or neither');
    if (user !== undefined) config.storeUser = user;
    if (password !== undefined) config.storePassword = password;
  }
  return config;
}

/** The data directory a command that works on one only (`mcp-ld repair`) names: `--data DIR`, else MCPLD_DATA. */
export function readDataDirectory(
  flags: { data?: string | undefined },
  env: Environment = process.env,
): string | undefined {
  return flags.data ?? env['MCPLD_DATA'] ?? undefined;
}

export interface TapConfig {
  /** Where undeliverable records wait for the store. */
  spoolDir: string;
  /** How long the tap waits, at exit, for the store to take what is left. */
  flushTimeoutMs: number;
  /** The write token of the service a tap bridges into (MCPLD_WRITE_TOKEN). */
  bridgeToken?: string;
}

/** The user's cache directory (XDG), where the spool and the list of data directories live. */
function cacheDirectory(env: Environment): string {
  return env['XDG_CACHE_HOME'] ?? `${env['HOME'] || homedir()}/.cache`;
}

export function readTapConfig(flags: { spool?: string | undefined }, env: Environment = process.env): TapConfig {
  return {
    spoolDir: flags.spool ?? env['MCPLD_SPOOL'] ?? `${cacheDirectory(env)}/mcp-ld/spool`,
    flushTimeoutMs: parsePositiveInteger('MCPLD_TAP_FLUSH_MS', env['MCPLD_TAP_FLUSH_MS'] ?? '10000'),
    ...(env['MCPLD_WRITE_TOKEN'] ? { bridgeToken: env['MCPLD_WRITE_TOKEN'] } : {}),
  };
}
