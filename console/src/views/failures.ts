// Failures: JSON-RPC errors and tool errors (isError results) grouped by kind, server, method, tool, code and message
// (the failures named query), each with a link to one of them in its session.
import { rows, type Row } from '../api.js';
import { h, fill, loading } from '../dom.js';
import { count, time } from '../format.js';
import { go, link, withParams } from '../router.js';
import { heading, table, type View } from '../view.js';

export const failuresView: View = {
  title: 'Failures',
  async render({ params, main }) {
    const kind = params.get('kind') ?? '';
    const select = h(
      'select',
      { id: 'kind', name: 'kind' },
      [
        ['', 'all'],
        ['error', 'JSON-RPC errors'],
        ['tool-error', 'tool errors (isError)'],
      ].map(([value, label]) => h('option', { value: value!, selected: value === kind }, label!)),
    );
    select.addEventListener('change', () => go('failures', withParams(params, { kind: select.value }), true));
    const list = h('div', {}, loading());
    main.append(
      heading(
        'Failures',
        h('form', { class: 'filters', 'aria-label': 'Filter failures' }, h('label', { for: 'kind' }, 'Kind'), select),
      ),
      list,
    );
    const all = await rows('failures');
    const shown = kind ? all.filter((r) => r['kind'] === kind) : all;
    const total = shown.reduce((n, r) => n + (r['failures'] as number), 0);
    fill(
      list,
      h('p', { 'data-figure': 'failures' }, `${count(total)} failures in ${count(shown.length)} groups.`),
      table(
        'Failures, grouped',
        [
          {
            label: 'Kind',
            key: 'kind',
            cell: (r: Row) =>
              h(
                'span',
                { class: r['kind'] === 'error' ? 'tag bad' : 'tag warn' },
                r['kind'] === 'error' ? 'JSON-RPC error' : 'tool error',
              ),
          },
          { label: 'Server', key: 'server', cell: (r) => (r['server'] as string) ?? '–' },
          {
            label: 'Method',
            key: 'method',
            cell: (r) => [
              (r['method'] as string) || '–',
              r['tool'] ? h('span', { class: 'muted' }, ` ${r['tool']}`) : null,
            ],
          },
          { label: 'Code', key: 'code', numeric: true, cell: (r) => (r['code'] as number | undefined) ?? '–' },
          {
            label: 'Message',
            key: 'message',
            cell: (r) => h('span', { class: 'message-text' }, (r['message'] as string) || '–'),
          },
          { label: 'Count', key: 'count', numeric: true, cell: (r) => count(r['failures']) },
          { label: 'Sessions', key: 'sessions', numeric: true, cell: (r) => count(r['sessions']) },
          { label: 'Last', key: 'last', cell: (r) => time(r['last']) },
          {
            label: 'Example',
            key: 'example',
            cell: (r) =>
              h(
                'a',
                { href: link('session', { id: r['exampleSession'] as string, m: r['exampleOrder'] as number }) },
                `#${r['exampleOrder']} in ${String(r['exampleSession']).slice(0, 8)}…`,
              ),
          },
        ],
        shown,
      ),
    );
  },
};
