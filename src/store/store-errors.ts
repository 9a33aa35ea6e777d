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
