// The store's errors, one constructor per kind, so that both implementations report the same codes and statuses.
import { McpLdError } from '../core/problem.js';

export function queryTimeout(ms: number, detail = ''): McpLdError {
  return new McpLdError({ code: 'query.timeout', status: 504, title: 'Query timed out', detail: `the query ran longer than its limit of ${ms} ms${detail}` });
}

export function invalidQuery(detail: string): McpLdError {
  return new McpLdError({ code: 'query.invalid', status: 400, title: 'Invalid SPARQL query', detail });
}

export function updateFailed(detail: string): McpLdError {
  return new McpLdError({ code: 'update.failed', status: 400, title: 'Update failed', detail });
}

export function updateTimeout(ms: number, detail: string): McpLdError {
  return new McpLdError({ code: 'update.timeout', status: 504, title: 'Update timed out', detail: `the update ran longer than its limit of ${ms} ms${detail}` });
}

export function storeFull(detail: string): McpLdError {
  return new McpLdError({ code: 'store.full', status: 507, title: 'Store full', detail });
}

/** A write the file system refused for want of space (ENOSPC) or quota (EDQUOT). */
export function isDiskFull(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The disk of a data directory is full: `what` says what became of the write (nothing of it was stored, say). */
export function diskFull(location: string, code: string, what: string): McpLdError {
  const why = code === 'EDQUOT' ? 'over its quota (EDQUOT)' : 'full (ENOSPC)';
  return new McpLdError({ code: 'store.disk-full', status: 507, title: 'Insufficient storage', detail: `the disk of the data directory ${location} is ${why}: ${what}; free space there, then try again` });
}

export function storeUnavailable(detail: string): McpLdError {
  return new McpLdError({ code: 'store.unavailable', status: 503, title: 'Store unavailable', detail });
}

export function storeLocked(detail: string): McpLdError {
  return new McpLdError({ code: 'store.locked', status: 423, title: 'Data directory in use', detail });
}

export function storeCorrupt(detail: string): McpLdError {
  return new McpLdError({ code: 'store.corrupt', status: 500, title: 'Data directory damaged', detail });
}

export function storeFailed(detail: string): McpLdError {
  return new McpLdError({ code: 'store.failed', status: 500, title: 'Store failure', detail });
}

export function storeReadOnly(location: string): McpLdError {
  return new McpLdError({ code: 'store.read-only', status: 409, title: 'Store opened read-only', detail: `${location} was opened to read only: nothing can be written to it through this store` });
}

export function storeClosed(): McpLdError {
  return new McpLdError({ code: 'store.closed', status: 503, title: 'Store closed', detail: 'the store was closed' });
}

export function invalidGraph(graph: string): McpLdError {
  return new McpLdError({ code: 'store.invalid-graph', status: 400, title: 'Invalid graph name', detail: `not an absolute IRI: ${JSON.stringify(graph)}` });
}
