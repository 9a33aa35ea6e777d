// The store's errors, one constructor per kind, so that both implementations report the same codes and statuses.
import { McpLdError } from '../core/problem.js';

export function queryTimeout(ms: number, detail = ''): McpLdError {
  return McpLdError.of('query.timeout', { detail: `the query ran longer than its limit of ${ms} ms${detail}` });
}

export function invalidQuery(detail: string): McpLdError {
  return McpLdError.of('query.invalid', { detail });
}

export function updateFailed(detail: string): McpLdError {
  return McpLdError.of('update.failed', { detail });
}

export function updateTimeout(ms: number, detail: string): McpLdError {
  return McpLdError.of('update.timeout', { detail: `the update ran longer than its limit of ${ms} ms${detail}` });
}

export function storeFull(detail: string): McpLdError {
  return McpLdError.of('store.full', { detail });
}

/** A write the file system refused for want of space (ENOSPC) or quota (EDQUOT). */
export function isDiskFull(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The disk of a data directory is full: `what` says what became of the write (nothing of it was stored, say). */
export function diskFull(location: string, code: string, what: string): McpLdError {
  const why = code === 'EDQUOT' ? 'over its quota (EDQUOT)' : 'full (ENOSPC)';
  return McpLdError.of('store.disk-full', {
    detail: `the disk of the data directory ${location} is ${why}: ${what}; free space there, then try again`,
  });
}

export function storeUnavailable(detail: string, retryAfter?: number): McpLdError {
  return McpLdError.of('store.unavailable', { detail, ...(retryAfter !== undefined ? { retryAfter } : {}) });
}

/** Too many queries wait for the store already (429): try again once the one running reached its limit (≥ 1 s). */
export function storeBusy(waiting: number, runningForMs: number): McpLdError {
  const retryAfter = Math.max(1, Math.ceil(runningForMs / 1000));
  return McpLdError.of('store.busy', {
    detail: `${waiting} queries are waiting for the store already, its limit (MCPLD_MAX_QUEUED); try again in ${retryAfter} s`,
    retryAfter,
  });
}

/** The embedded store's worker died running a query or an update (out of memory or of stack): its doing (422). */
export function tooDemanding(kind: 'query' | 'update', reason: string): McpLdError {
  return McpLdError.of(`${kind}.too-demanding`, {
    detail: `the ${kind} made the embedded store's engine fail (${reason}: it ran out of memory or of stack); the store was rebuilt and lost nothing${kind === 'update' ? ', and nothing of the update was applied' : ''}. ${kind === 'query' ? 'Narrow the query, or give it a LIMIT' : 'Split the update into smaller ones'}`,
  });
}

export function storeLocked(detail: string): McpLdError {
  return McpLdError.of('store.locked', { detail });
}

export function noDataDirectory(dir: string): McpLdError {
  return McpLdError.of('store.no-data-directory', {
    detail: `${dir} does not exist: nothing was ever stored there (check --data or MCPLD_DATA)`,
  });
}

export function storeCorrupt(detail: string): McpLdError {
  return McpLdError.of('store.corrupt', { detail });
}

export function storeFailed(detail: string): McpLdError {
  return McpLdError.of('store.failed', { detail });
}

export function storeReadOnly(location: string): McpLdError {
  return McpLdError.of('store.read-only', {
    detail: `${location} was opened to read only: nothing can be written to it through this store`,
  });
}

export function storeClosed(): McpLdError {
  return McpLdError.of('store.closed', { detail: 'the store was closed' });
}

export function invalidGraph(graph: string): McpLdError {
  return McpLdError.of('store.invalid-graph', { detail: `not an absolute IRI: ${JSON.stringify(graph)}` });
}

/** An answer past a bound of result-limits.ts (422): which one, and how to stay under it or raise it. */
export function resultTooLarge({
  exceeded,
  form,
  limit,
}: {
  exceeded: 'rows' | 'bytes';
  form: string;
  limit: number;
}): McpLdError {
  const what =
    exceeded === 'bytes'
      ? `its results are larger than the limit of ${limit} bytes (MCPLD_MAX_RESULT_BYTES)`
      : form === 'CONSTRUCT'
        ? `its WHERE clause gives more than the limit of ${limit} solutions (MCPLD_MAX_RESULT_ROWS)`
        : form === 'DESCRIBE'
          ? `it describes more than the limit of ${limit} triples (MCPLD_MAX_RESULT_ROWS)`
          : `it gives more than the limit of ${limit} rows (MCPLD_MAX_RESULT_ROWS)`;
  return McpLdError.of('query.result-too-large', {
    detail: `the query was stopped: ${what}; narrow it, or page through it with ORDER BY, LIMIT and OFFSET (or raise the limit)`,
  });
}

/** A query or update that killed the probe's engine (embedded-probe.ts) and would kill the store's (400). */
export function tooComplexForEngine(kind: 'query' | 'update', reason: string): McpLdError {
  return McpLdError.of(`${kind}.too-complex`, {
    detail: `the embedded store's engine cannot run this ${kind} (${reason}): it chains or nests too many patterns, operators or paths (a few thousand OPTIONALs, BINDs or joined patterns do); split it into smaller ${kind === 'query' ? 'queries' : 'updates'}`,
  });
}
