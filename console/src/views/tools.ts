// Tools: per server and tool, calls (tool-calls), error rate (tool-errors), p50/p95 latency (tool-latency); for the
// tool
// chosen, its latency histogram (tool-latency-histogram), its parameters (tool-parameters) and how its definition
// changed between tools/list answers (tool-schema-changes).
import { rows, type Row } from '../api.js';
import { barChart } from '../chart.js';
import { h, fill, loading, problem } from '../dom.js';
import { count, millis, percent, time } from '../format.js';
import { link } from '../router.js';
import { heading, table, type View } from '../view.js';

/** The upper bounds of tool-latency-histogram's ranges (Infinity: its unbounded last range). */
const histogramBounds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, Infinity];

const keyOf = (r: Row) => `${r['server'] ?? ''}\u0000${r['tool']}`;

async function details(panel: HTMLElement, server: string, tool: string): Promise<void> {
  const changes = definitionChanges(server, tool);
  const sameServer = (r: Row) => (r['server'] ?? '') === server;
  // The parameters come on their own: tool-parameters is slow on a large store, and the histogram need not wait for it.
  const parameterList = h('div', { 'data-parameters': 'loading' }, loading());
  const histogram = await rows('tool-latency-histogram', { tool });
  void rows('tool-parameters', { tool }).then(
    (parameters) => {
      parameterList.dataset['parameters'] = String(parameters.filter(sameServer).length);
      fill(
        parameterList,
        table(
          `Parameters of ${tool}`,
          [
            { label: 'Name', cell: (r: Row) => h('code', {}, r['name'] as string) },
            { label: 'Type', cell: (r) => (r['type'] as string) || '–' },
            { label: 'Required', cell: (r) => (r['required'] === true ? 'yes' : 'no') },
          ],
          parameters.filter(sameServer),
        ),
      );
    },
    (error: unknown) => fill(parameterList, problem(error)),
  );
  // Every range from the fastest answer's to the slowest's, the empty ones too, so the bars read as a histogram.
  const counts = new Map(
    histogram.filter(sameServer).map((r) => [(r['upToMs'] as number | undefined) ?? Infinity, r['answered'] as number]),
  );
  const used = histogramBounds.filter((b) => counts.has(b));
  const span = used.length
    ? histogramBounds.slice(histogramBounds.indexOf(used[0]!), histogramBounds.indexOf(used[used.length - 1]!) + 1)
    : [];
  const bars = span.map((bound) => ({
    label: bound === Infinity ? '≥1 min' : `<${millis(bound)}`.replace(' ', ''),
    value: counts.get(bound) ?? 0,
    title: `${count(counts.get(bound) ?? 0)} answers ${bound === Infinity ? 'of a minute or more' : `under ${millis(bound)}`}`,
  }));
  fill(
    panel,
    h('h2', { id: 'tool-title' }, `${tool}`, h('span', { class: 'muted' }, ` on ${server || 'an unnamed server'}`)),
    h(
      'div',
      { class: 'tool-detail' },
      h(
        'figure',
        {},
        h('figcaption', {}, 'Latency of its answered calls'),
        barChart(`Latency histogram of ${tool}`, bars, (v) => count(v)),
      ),
      h('div', {}, h('h3', {}, 'Parameters'), parameterList),
    ),
    h('h3', {}, 'Definition changes'),
    changes,
  );
}

/**
 * How the tool's definition changed between tools/list answers (tool-schema-changes compares every listing of it: asked
 * for on demand).
 */
function definitionChanges(server: string, tool: string): HTMLElement {
  const place = h('div', { 'data-changes': 'closed' });
  const button = h('button', { type: 'button' }, 'Compare its tools/list answers');
  button.addEventListener('click', async () => {
    fill(place, loading('Comparing every tools/list answer…'));
    const changed = (await rows('tool-schema-changes', { tool })).filter((r) => (r['server'] ?? '') === server);
    place.dataset['changes'] = String(changed.length);
    fill(
      place,
      changed.length === 0
        ? h(
            'p',
            { class: 'muted' },
            'Its inputSchema and outputSchema were the same in every tools/list answer recorded.',
          )
        : changed.map((r) =>
            h(
              'details',
              { class: 'change' },
              h('summary', {}, `${r['changed']} changed at ${time(r['afterTime'])} (before: ${time(r['beforeTime'])})`),
              h(
                'p',
                { class: 'muted' },
                'The answers compared: ',
                h('code', {}, r['before'] as string),
                ' and ',
                h('code', {}, r['after'] as string),
              ),
            ),
          ),
    );
  });
  fill(place, button);
  return place;
}

export const toolsView: View = {
  title: 'Tools',
  async render({ params, main }) {
    const list = h('div', {}, loading());
    const panel = h('section', { class: 'panel', 'aria-labelledby': 'tool-title', hidden: true });
    // The tool chosen is described above the list, where the link to it was followed.
    main.append(heading('Tools'), panel, list);
    const [calls, errors, latency] = await Promise.all([rows('tool-calls'), rows('tool-errors'), rows('tool-latency')]);
    const errorsBy = new Map(errors.map((r) => [keyOf(r), r]));
    const latencyBy = new Map(latency.map((r) => [keyOf(r), r]));
    const chosen = params.has('tool') ? `${params.get('server') ?? ''}\u0000${params.get('tool')}` : undefined;
    fill(
      list,
      table(
        'Tools per server',
        [
          { label: 'Server', key: 'server', cell: (r: Row) => (r['server'] as string) ?? '–' },
          {
            label: 'Tool',
            key: 'tool',
            cell: (r) =>
              h(
                'a',
                { href: link('tools', { server: r['server'] as string, tool: r['tool'] as string }) },
                r['tool'] as string,
              ),
          },
          { label: 'Calls', key: 'calls', numeric: true, cell: (r) => count(r['calls']) },
          {
            label: 'Error rate',
            key: 'error-rate',
            numeric: true,
            cell: (r) => {
              const rate = errorsBy.get(keyOf(r))?.['errorRate'];
              return h('span', { class: typeof rate === 'number' && rate > 0 ? 'bad' : undefined }, percent(rate));
            },
          },
          { label: 'p50', key: 'p50', numeric: true, cell: (r) => millis(latencyBy.get(keyOf(r))?.['p50Ms']) },
          { label: 'p95', key: 'p95', numeric: true, cell: (r) => millis(latencyBy.get(keyOf(r))?.['p95Ms']) },
          { label: 'Sessions', key: 'sessions', numeric: true, cell: (r) => count(r['sessions']) },
          { label: 'Last call', key: 'last', cell: (r) => time(r['lastCall']) },
        ],
        calls,
        {
          rowAttributes: (r) => ({
            'data-tool': `${r['server'] ?? ''}/${r['tool']}`,
            class: keyOf(r) === chosen ? 'selected' : undefined,
          }),
        },
      ),
    );
    if (params.has('tool')) {
      panel.hidden = false;
      fill(panel, loading());
      await details(panel, params.get('server') ?? '', params.get('tool')!);
    }
  },
};
