// What the rows of a named query should be, computed from the JSON of capture records alone (no SPARQL): for the tests
// of the rows format on the API and the CLI.
import type { CaptureRecord } from '../../src/lift/records.js';

/** An xsd:dateTime as the embedded store gives it back: trailing zeros of the fraction of a second dropped. */
function canonicalDateTime(ts: string): string {
  return ts.replace(/(\.[0-9]*?)0+(?=Z|[+-][0-9]{2}:[0-9]{2}$)/, '$1').replace(/\.(?=Z|[+-][0-9]{2}:[0-9]{2}$)/, '');
}

/**
 * The rows of `tool-calls` for these records (those `keep` keeps): per server and tool, calls, sessions, first and last
 * call.
 */
export function toolCallRows(
  records: CaptureRecord[],
  only?: string,
  keep: (record: CaptureRecord) => boolean = () => true,
): Record<string, string | number>[] {
  const byTool = new Map<
    string,
    { server: string; tool: string; calls: number; sessions: Set<string>; times: string[] }
  >();
  for (const record of records) {
    const msg = record.msg;
    if (msg?.['method'] !== 'tools/call' || !('id' in msg)) continue;
    const tool = (msg['params'] as { name: string }).name;
    if ((only !== undefined && tool !== only) || !keep(record)) continue;
    const key = `${record.server}|${tool}`;
    const entry = byTool.get(key) ?? { server: record.server!, tool, calls: 0, sessions: new Set<string>(), times: [] };
    entry.calls++;
    entry.sessions.add(record.session!);
    entry.times.push(record.ts!);
    byTool.set(key, entry);
  }
  const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);
  return [...byTool.values()]
    .sort(
      (a, b) =>
        b.calls - a.calls ||
        (a.server < b.server ? -1 : a.server > b.server ? 1 : 0) ||
        (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0),
    )
    .map((e) => {
      const times = [...e.times].sort(byTime);
      return {
        server: e.server,
        tool: e.tool,
        calls: e.calls,
        sessions: e.sessions.size,
        firstCall: canonicalDateTime(times[0]!),
        lastCall: canonicalDateTime(times.at(-1)!),
      };
    });
}

/** Rows as the rows format writes them: a JSON array, a row a line. */
export function rowsText(rows: object[]): string {
  return rows.length === 0 ? '[]\n' : `[\n${rows.map((row) => JSON.stringify(row)).join(',\n')}\n]\n`;
}

/** Rows as JSON Lines. */
export function jsonLinesText(rows: object[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}

/**
 * The nearest-rank percentile by its definition: the smallest value L such that at least ceil(P% of n) values are ≤ L.
 */
export function percentileOf(values: number[], percent: number): number | undefined {
  const needed = Math.ceil((percent * values.length) / 100);
  return [...values].sort((a, b) => a - b).find((l) => values.filter((x) => x <= l).length >= needed);
}

/** Per method and direction of the request, the latencies (ms) of the answered requests of these records. */
function latenciesByMethod(records: CaptureRecord[]): Map<string, number[]> {
  const pending = new Map<string, CaptureRecord>();
  const groups = new Map<string, number[]>();
  for (const record of records) {
    const msg = record.msg;
    if (!msg) continue;
    if (typeof msg['method'] === 'string' && 'id' in msg)
      pending.set(`${record.session}|${record.dir}|${typeof msg['id']}|${String(msg['id'])}`, record);
    else if ('id' in msg && ('result' in msg || 'error' in msg)) {
      const key = `${record.session}|${record.dir === 'c2s' ? 's2c' : 'c2s'}|${typeof msg['id']}|${String(msg['id'])}`;
      const request = pending.get(key);
      if (!request) continue;
      pending.delete(key);
      const group = `${request.msg['method']}|${request.dir}`;
      groups.set(group, [...(groups.get(group) ?? []), Date.parse(record.ts!) - Date.parse(request.ts!)]);
    }
  }
  return groups;
}

/**
 * Checks rows of `latency-by-method` (parsed) against the latencies of the records: counts, percentiles, extremes
 * exactly.
 */
export function latencyRowsProblems(rows: Record<string, unknown>[], records: CaptureRecord[]): string[] {
  const groups = latenciesByMethod(records);
  const problems: string[] = [];
  const directions: Record<string, string> = { 'mld:clientToServer': 'c2s', 'mld:serverToClient': 's2c' };
  if (rows.length !== groups.size) problems.push(`${rows.length} rows for ${groups.size} groups`);
  for (const row of rows) {
    const list = groups.get(`${row['method']}|${directions[row['direction'] as string]}`);
    if (!list) {
      problems.push(`no group for ${JSON.stringify(row)}`);
      continue;
    }
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    const want = {
      answered: list.length,
      p50Ms: percentileOf(list, 50),
      p95Ms: percentileOf(list, 95),
      p99Ms: percentileOf(list, 99),
      minMs: Math.min(...list),
      maxMs: Math.max(...list),
    };
    for (const [key, value] of Object.entries(want))
      if (row[key] !== value) problems.push(`${row['method']}: ${key} ${row[key]} ≠ ${value}`);
    if (typeof row['avgMs'] !== 'number' || Math.abs(row['avgMs'] - mean) > 1e-9)
      problems.push(`${row['method']}: avgMs ${row['avgMs']} ≠ ${mean}`);
  }
  return problems;
}
