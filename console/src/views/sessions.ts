// Sessions: one page of the session-list named query at a time, sorted and filtered by the service (so that 10,000
// sessions cost a page), with the filters' choices and counts from session-facets.
import { rows, type Row } from '../api.js';
import { h, fill, loading } from '../dom.js';
import { between, count, duration, time } from '../format.js';
import { go, link, withParams } from '../router.js';
import { heading, table, type Column, type View } from '../view.js';

const pageSize = 50;

const sortable: Record<string, string> = {
  Session: 'id',
  Server: 'server',
  Client: 'client',
  'Protocol version': 'protocol',
  Start: 'start',
  Duration: 'duration',
  Messages: 'messages',
  Errors: 'errors',
};

function choices(facets: Row[], key: string, selected: string | null): HTMLOptionElement[] {
  const counts = new Map<string, number>();
  for (const f of facets)
    if (typeof f[key] === 'string')
      counts.set(f[key] as string, (counts.get(f[key] as string) ?? 0) + (f['sessions'] as number));
  return [
    h('option', { value: '' }, 'all'),
    ...[...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([value, n]) => h('option', { value, selected: value === selected }, `${value} (${count(n)})`)),
  ];
}

export const sessionsView: View = {
  title: 'Sessions',
  async render({ params, main }) {
    const sort = params.get('sort') ?? 'start';
    const descending = params.get('desc') === 'true' || (!params.has('sort') && !params.has('desc'));
    const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
    const filters = {
      filterServer: params.get('server'),
      filterClient: params.get('client'),
      filterProtocol: params.get('protocol'),
      search: params.get('q'),
    };
    const list = h('div', {}, loading());
    const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter sessions' });
    main.append(heading('Sessions', form), list);
    const [facets, page1] = await Promise.all([
      rows('session-facets'),
      rows('session-list', { ...filters, sort, descending, limit: pageSize + 1, offset: (page - 1) * pageSize }),
    ]);
    const search = h('input', {
      type: 'search',
      id: 'q',
      name: 'q',
      value: params.get('q') ?? '',
      placeholder: 'id, server or client',
    });
    const selects = (['server', 'client', 'protocol'] as const).map((name) => {
      const select = h(
        'select',
        { id: `filter-${name}`, name },
        choices(facets, name === 'protocol' ? 'protocolVersion' : name, params.get(name)),
      );
      select.addEventListener('change', () =>
        go('sessions', withParams(params, { [name]: select.value, page: undefined }), true),
      );
      return [
        h(
          'label',
          { for: `filter-${name}` },
          name === 'protocol' ? 'Protocol' : name[0]!.toUpperCase() + name.slice(1),
        ),
        select,
      ];
    });
    fill(form, h('label', { for: 'q' }, 'Search'), search, h('button', { type: 'submit' }, 'Search'), selects);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      go('sessions', withParams(params, { q: search.value.trim(), page: undefined }), true);
    });
    // Without a text search, the facets say how many sessions the filters keep.
    const matching = filters.search
      ? undefined
      : facets
          .filter(
            (f) =>
              (!filters.filterServer || f['server'] === filters.filterServer) &&
              (!filters.filterClient || f['client'] === filters.filterClient) &&
              (!filters.filterProtocol || f['protocolVersion'] === filters.filterProtocol),
          )
          .reduce((n, f) => n + (f['sessions'] as number), 0);
    const shown = page1.slice(0, pageSize);
    const more = page1.length > pageSize;
    const columns: Column<Row>[] = [
      {
        label: 'Session',
        key: 'session',
        cell: (r) =>
          h(
            'a',
            { href: link('session', { id: r['sessionId'] as string }), title: r['sessionId'] as string },
            String(r['sessionId']).length > 18 ? `${String(r['sessionId']).slice(0, 8)}…` : (r['sessionId'] as string),
          ),
      },
      {
        label: 'Server',
        key: 'server',
        cell: (r) => [
          r['server'] ?? '–',
          r['serverImplementation'] && r['serverImplementation'] !== r['server']
            ? h('span', { class: 'muted' }, ` (${r['serverImplementation']} ${r['serverVersion'] ?? ''})`)
            : null,
        ],
      },
      {
        label: 'Client',
        key: 'client',
        cell: (r) => [
          r['client'] ?? '–',
          r['clientVersion'] ? h('span', { class: 'muted' }, ` ${r['clientVersion']}`) : null,
        ],
      },
      { label: 'Protocol version', key: 'protocol', cell: (r) => (r['protocolVersion'] as string) ?? '–' },
      { label: 'Start', key: 'start', cell: (r) => time(r['firstMessage']) },
      {
        label: 'Duration',
        key: 'duration',
        numeric: true,
        cell: (r) => duration(between(r['firstMessage'], r['lastMessage'])),
      },
      { label: 'Messages', key: 'messages', numeric: true, cell: (r) => count(r['messages']) },
      {
        label: 'Errors',
        key: 'errors',
        numeric: true,
        cell: (r) => (r['errors'] ? h('span', { class: 'bad' }, count(r['errors'])) : '0'),
      },
    ];
    const head = (column: Column<Row>) => {
      const key = sortable[column.label];
      if (!key) return column.label;
      const active = key === sort;
      return h(
        'button',
        {
          type: 'button',
          class: 'sort',
          'aria-label': `Sort by ${column.label.toLowerCase()}${active ? (descending ? ', descending' : ', ascending') : ''}`,
          onclick: () =>
            go(
              'sessions',
              withParams(params, {
                sort: key,
                desc: active
                  ? !descending
                  : key === 'start' || key === 'messages' || key === 'errors' || key === 'duration',
                page: undefined,
              }),
              true,
            ),
        },
        column.label,
        h('span', { 'aria-hidden': 'true', class: 'arrow' }, active ? (descending ? ' ▼' : ' ▲') : ''),
      );
    };
    const grid = table('Sessions', columns, shown, {
      head,
      rowAttributes: (r) => ({ 'data-session': r['sessionId'] as string }),
    });
    for (const th of grid.querySelectorAll('th')) {
      const key = sortable[th.textContent?.replace(/[▲▼]/g, '').trim() ?? ''];
      if (key === sort) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    }
    const first = (page - 1) * pageSize + 1;
    const pager = h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages of sessions' },
      h(
        'span',
        { 'data-figure': 'session-range' },
        shown.length === 0
          ? 'No session.'
          : `Sessions ${count(first)}–${count(first + shown.length - 1)}${matching !== undefined ? ` of ${count(matching)}` : ''}`,
      ),
      h(
        'a',
        {
          href:
            page > 1
              ? link('sessions', withParams(params, { page: page - 1 === 1 ? undefined : page - 1 }))
              : undefined,
          'aria-disabled': page > 1 ? undefined : 'true',
          class: 'button',
        },
        '← Previous',
      ),
      h(
        'a',
        {
          href: more ? link('sessions', withParams(params, { page: page + 1 })) : undefined,
          'aria-disabled': more ? undefined : 'true',
          class: 'button',
        },
        'Next →',
      ),
    );
    if (matching !== undefined) main.dataset['total'] = String(matching);
    fill(list, grid, pager);
  },
};
