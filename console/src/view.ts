// What every view is: it renders itself from its URL parameters into the main element, and may refresh when the
// store changes (live updates), given the sessions the writes touched (empty: any).
import { h, type Child } from './dom.js';

interface ViewContext {
  params: URLSearchParams;
  main: HTMLElement;
}

export interface View {
  title: string;
  render(context: ViewContext): Promise<void>;
  /** Whether a change to these sessions (empty: unknown) should redraw the view; default yes. */
  changes?(context: ViewContext, sessions: string[]): boolean;
}

export interface Column<R> {
  label: string;
  /** Right-aligned (figures). */
  numeric?: boolean;
  cell: (row: R) => Child;
  /** Names the cell for tests and tools: `data-column`. */
  key?: string;
}

/** A table with a caption; `onRow` makes each row a link-like, keyboard-reachable target. */
export function table<R>(
  caption: string,
  columns: Column<R>[],
  rows: R[],
  options: { head?: (column: Column<R>) => Child; rowAttributes?: (row: R) => Record<string, string | undefined> } = {},
): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) =>
            h('th', { scope: 'col', class: c.numeric ? 'num' : undefined }, options.head ? options.head(c) : c.label),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        rows.length === 0
          ? h('tr', {}, h('td', { colspan: columns.length, class: 'empty' }, 'Nothing to show.'))
          : null,
        rows.map((row) =>
          h(
            'tr',
            options.rowAttributes?.(row) ?? {},
            columns.map((c) => h('td', { class: c.numeric ? 'num' : undefined, 'data-column': c.key }, c.cell(row))),
          ),
        ),
      ),
    ),
  );
}

export function heading(title: string, ...rest: Child[]): HTMLElement {
  return h('div', { class: 'view-head' }, h('h1', {}, title), ...rest);
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'panel', 'aria-label': title }, h('h2', {}, title), ...children);
}
