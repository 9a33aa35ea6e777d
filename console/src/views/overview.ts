// Overview: the totals of the traffic (named query overview), its activity over time (activity: messages, error rate
// and p95 latency per minute, hour or day) and the protocol versions in use (protocol-versions), for a time range.
import { rows, type Row } from '../api.js';
import { lineChart, type TimePoint } from '../chart.js';
import { h, fill, loading } from '../dom.js';
import { count, millis, percent, time } from '../format.js';
import { go, withParams } from '../router.js';
import { heading, section, table, type View } from '../view.js';

const ranges: [string, string, number | undefined][] = [
  ['all', 'All time', undefined],
  ['1h', 'Last hour', 3_600_000],
  ['24h', 'Last 24 hours', 86_400_000],
  ['7d', 'Last 7 days', 7 * 86_400_000],
  ['30d', 'Last 30 days', 30 * 86_400_000],
  ['custom', 'Between…', undefined],
];

/** The window the URL asks for: a range back from now, or since/until as given. */
function windowOf(params: URLSearchParams): { range: string; since?: string; until?: string } {
  const range = params.get('range') ?? (params.has('since') || params.has('until') ? 'custom' : 'all');
  const span = ranges.find(([name]) => name === range)?.[2];
  if (span !== undefined) return { range, since: new Date(Date.now() - span).toISOString() };
  if (range === 'custom')
    return {
      range,
      ...(params.get('since') ? { since: params.get('since')! } : {}),
      ...(params.get('until') ? { until: params.get('until')! } : {}),
    };
  return { range: 'all' };
}

/** Periods of a minute for up to six hours, of an hour for up to two weeks, of a day beyond. */
function bucketFor(fromMs: number, toMs: number): 'minute' | 'hour' | 'day' {
  const span = toMs - fromMs;
  return span <= 6 * 3_600_000 ? 'minute' : span <= 14 * 86_400_000 ? 'hour' : 'day';
}

/** A period as the activity query gives it (2026-11-29T22:56, 2026-11-29T22, 2026-11-29): its start. */
function periodStart(period: string): number {
  const full = period.length === 10 ? `${period}T00:00` : period.length === 13 ? `${period}:00` : period;
  return Date.parse(`${full}:00Z`);
}

function toLocalInput(iso: string | undefined): string {
  return iso ? iso.slice(0, 16) : '';
}

function picker(params: URLSearchParams, window: ReturnType<typeof windowOf>): HTMLElement {
  const select = h(
    'select',
    { id: 'range', name: 'range' },
    ranges.map(([name, label]) => h('option', { value: name, selected: name === window.range }, label)),
  );
  const since = h('input', {
    type: 'datetime-local',
    id: 'since',
    name: 'since',
    value: window.range === 'custom' ? toLocalInput(window.since) : '',
  });
  const until = h('input', {
    type: 'datetime-local',
    id: 'until',
    name: 'until',
    value: window.range === 'custom' ? toLocalInput(window.until) : '',
  });
  const custom = h(
    'span',
    { class: 'custom', hidden: window.range !== 'custom' },
    h('label', { for: 'since' }, 'from (UTC)'),
    since,
    h('label', { for: 'until' }, 'to'),
    until,
    h('button', { type: 'submit' }, 'Apply'),
  );
  select.addEventListener('change', () => {
    if (select.value === 'custom') {
      custom.hidden = false;
      return;
    }
    go(
      'overview',
      withParams(params, {
        range: select.value === 'all' ? undefined : select.value,
        since: undefined,
        until: undefined,
      }),
      true,
    );
  });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Time range' },
    h('label', { for: 'range' }, 'Time range'),
    select,
    custom,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // The inputs read as UTC, as every time on the page is.
    const utc = (input: HTMLInputElement) => (input.value ? `${input.value.slice(0, 16)}:00Z` : undefined);
    go('overview', withParams(params, { range: 'custom', since: utc(since), until: utc(until) }), true);
  });
  return form;
}

function figure(name: string, label: string, value: string, note?: string): HTMLElement {
  return h(
    'div',
    { class: 'figure', 'data-figure': name },
    h('span', { class: 'figure-label' }, label),
    h('span', { class: 'figure-value' }, value),
    note ? h('span', { class: 'figure-note' }, note) : null,
  );
}

export const overviewView: View = {
  title: 'Overview',
  async render({ params, main }) {
    const window = windowOf(params);
    const range = { since: window.since, until: window.until };
    const figures = h('div', { class: 'figures' }, loading());
    const charts = h('div', { class: 'charts' }, loading());
    const versions = h('div', {}, loading());
    main.append(
      heading('Overview', picker(params, window)),
      figures,
      section('Activity', charts),
      section('Protocol versions in use', versions),
    );
    const [totals] = await rows('overview', range);
    const t: Row = totals ?? {};
    fill(
      figures,
      figure('messages', 'Messages', count(t['messages'])),
      figure('sessions', 'Sessions', count(t['sessions'])),
      figure('servers', 'Servers', count(t['servers'])),
      figure('clients', 'Clients', count(t['clients'])),
      figure('answered', 'Answered requests', count(t['answered']), `of ${count(t['requests'])} requests`),
      figure(
        'error-rate',
        'Error rate',
        percent(t['errorRate']),
        `${count(t['rpcErrors'])} JSON-RPC errors, ${count(t['toolErrors'])} tool errors`,
      ),
    );
    figures.appendChild(
      h(
        'p',
        { class: 'span' },
        t['firstMessage']
          ? `From ${time(t['firstMessage'])} to ${time(t['lastMessage'])}`
          : 'No message in this range.',
      ),
    );
    const from = Date.parse(window.since ?? String(t['firstMessage'] ?? '')) || Date.now();
    const to = Date.parse(window.until ?? String(t['lastMessage'] ?? '')) || Date.now();
    const bucket = bucketFor(from, to);
    const [activity, inUse] = await Promise.all([
      rows('activity', { ...range, bucket }),
      rows('protocol-versions', range),
    ]);
    const periodLabel = (at: number) => {
      const iso = new Date(at).toISOString();
      return bucket === 'day'
        ? iso.slice(0, 10)
        : bucket === 'hour'
          ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`
          : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
    };
    const points = (value: (r: Row) => number | undefined, label: (r: Row) => string): TimePoint[] =>
      activity.flatMap((r) => {
        const v = value(r);
        return v === undefined
          ? []
          : [{ at: periodStart(String(r['period'])), value: v, label: `${r['period']}: ${label(r)}` }];
      });
    fill(
      charts,
      h(
        'figure',
        {},
        h('figcaption', {}, `Messages per ${bucket}`),
        lineChart(
          `Messages per ${bucket}`,
          points(
            (r) => r['messages'] as number,
            (r) => `${count(r['messages'])} messages`,
          ),
          (v) => count(v),
          periodLabel,
        ),
      ),
      h(
        'figure',
        {},
        h('figcaption', {}, 'Error rate'),
        lineChart(
          `Error rate per ${bucket}`,
          points(
            (r) => (typeof r['answered'] === 'number' && r['answered'] > 0 ? (r['errorRate'] as number) : undefined),
            (r) => `${percent(r['errorRate'])} of ${count(r['answered'])} answers`,
          ),
          (v) => percent(v),
          periodLabel,
        ),
      ),
      h(
        'figure',
        {},
        h('figcaption', {}, 'p95 latency'),
        lineChart(
          `p95 latency per ${bucket}`,
          points(
            (r) => r['p95Ms'] as number | undefined,
            (r) => `p95 ${millis(r['p95Ms'])}, p50 ${millis(r['p50Ms'])}`,
          ),
          (v) => millis(v),
          periodLabel,
        ),
      ),
    );
    fill(
      versions,
      table(
        'Protocol versions in use',
        [
          { label: 'Protocol version', cell: (r: Row) => r['version'] as string, key: 'version' },
          {
            label: 'Client',
            cell: (r) => [
              r['client'] ?? '–',
              r['clientVersion'] ? h('span', { class: 'muted' }, ` ${r['clientVersion']}`) : null,
            ],
          },
          {
            label: 'Server',
            cell: (r) => [
              r['server'] ?? '–',
              r['serverVersion'] ? h('span', { class: 'muted' }, ` ${r['serverVersion']}`) : null,
            ],
          },
          { label: 'Sessions', numeric: true, cell: (r) => count(r['sessions']), key: 'sessions' },
          { label: 'Messages', numeric: true, cell: (r) => count(r['messages']), key: 'messages' },
        ],
        inUse,
      ),
    );
  },
};
