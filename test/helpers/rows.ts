// What the rows of a named query should be, computed from the JSON of capture records alone (no SPARQL): for the tests
// of the rows format on the API and the CLI.
import type { CaptureRecord } from '../../src/lift/records.js';

/** An xsd:dateTime as the embedded store gives it back: trailing zeros of the fraction of a second dropped. */
export function canonicalDateTime(ts: string): string {
  return ts.replace(/(\.[0-9]*?)0+(?=Z|[+-][0-9]{2}:[0-9]{2}$)/, '$1').replace(/\.(?=Z|[+-][0-9]{2}:[0-9]{2}$)/, '');
}

/** The rows of `tool-calls` for these records: per server and tool, calls, sessions, first and last call. */
export function toolCallRows(records: CaptureRecord[], only?: string): Record<string, string | number>[] {
  const byTool = new Map<string, { server: string; tool: string; calls: number; sessions: Set<string>; times: string[] }>();
  for (const record of records) {
    const msg = record.msg;
    if (msg?.['method'] !== 'tools/call' || !('id' in msg)) continue;
    const tool = (msg['params'] as { name: string }).name;
    if (only !== undefined && tool !== only) continue;
    const key = `${record.server}|${tool}`;
    const entry = byTool.get(key) ?? { server: record.server!, tool, calls: 0, sessions: new Set<string>(), times: [] };
    entry.calls++;
    entry.sessions.add(record.session!);
    entry.times.push(record.ts!);
    byTool.set(key, entry);
  }
  const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);
  return [...byTool.values()]
    .sort((a, b) => b.calls - a.calls || (a.server < b.server ? -1 : a.server > b.server ? 1 : 0) || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0))
    .map((e) => {
      const times = [...e.times].sort(byTime);
      return { server: e.server, tool: e.tool, calls: e.calls, sessions: e.sessions.size, firstCall: canonicalDateTime(times[0]!), lastCall: canonicalDateTime(times.at(-1)!) };
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
