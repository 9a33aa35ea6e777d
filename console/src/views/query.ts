// Query: the SPARQL editor (YASGUI, bundled in a chunk of its own and loaded by this view only) set up for this
// service's /sparql alone (GET: it only reads), with the named queries offered as examples, and results as a table
// or a chart (a YASR plugin drawing chart.ts's bars).
import { namedQueries } from '../api.js';
import { barChart } from '../chart.js';
import { h } from '../dom.js';
import { count } from '../format.js';
import { heading, type View } from '../view.js';

type Binding = Record<string, { type: string; value: string; datatype?: string } | undefined>;
interface Results {
  getVariables(): string[];
  getBindings(): Binding[];
}
interface YasrLike {
  results?: Results;
  resultsEl: HTMLElement;
}

const numericTypes =
  /#(integer|decimal|double|float|long|int|short|byte|nonNegativeInteger|positiveInteger|unsignedInt|unsignedLong)$/;

/** The first column whose every bound value is a number, and the first other column to label the bars with. */
function chartColumns(results: Results | undefined): { label: string; value: string } | undefined {
  if (!results?.getVariables || !results.getBindings) return undefined;
  const variables = results.getVariables();
  const bindings = results.getBindings();
  if (bindings.length === 0) return undefined;
  const value = variables.find(
    (v) =>
      bindings.every((b) => b[v] === undefined || (b[v]!.type !== 'uri' && numericTypes.test(b[v]!.datatype ?? ''))) &&
      bindings.some((b) => b[v] !== undefined),
  );
  const label = variables.find((v) => v !== value);
  return value && label ? { label, value } : undefined;
}

/** YASR's chart of a SELECT: a bar per row (at most 200), its height the first numeric column. */
class ChartPlugin {
  priority = 5;
  label = 'Chart';
  hideFromSelection = false;
  constructor(private readonly yasr: YasrLike) {}
  canHandleResults(): boolean {
    return chartColumns(this.yasr.results) !== undefined;
  }
  draw(): void {
    const columns = chartColumns(this.yasr.results)!;
    const bindings = this.yasr.results!.getBindings().slice(0, 200);
    const bars = bindings.map((b) => ({
      label: (b[columns.label]?.value ?? '').slice(0, 14),
      value: Number(b[columns.value]?.value ?? 0),
      title: `${b[columns.label]?.value ?? ''}: ${b[columns.value]?.value ?? ''}`,
    }));
    this.yasr.resultsEl.appendChild(
      h(
        'figure',
        { class: 'yasr-chart' },
        h('figcaption', {}, `${columns.value} by ${columns.label}`),
        barChart(`${columns.value} by ${columns.label}`, bars, (v) => count(v)),
      ),
    );
  }
  getIcon(): Element {
    return h('span', { 'aria-hidden': 'true' }, '▮▮');
  }
}

let registered = false;

/**
 * Names what YASGUI leaves unnamed (its editor's text area, the endpoint field, the page-size select), and makes its
 * scrolling editor reachable by keyboard, whenever it draws them.
 */
function labelEditor(root: HTMLElement): void {
  const name = (selector: string, label: string) =>
    root
      .querySelectorAll(selector)
      .forEach((e) => !e.hasAttribute('aria-label') && e.setAttribute('aria-label', label));
  name('.yasqe textarea', 'SPARQL query');
  name('input.autocomplete', 'SPARQL endpoint');
  name('select.tableSizer', 'Rows per page');
  name('.yasr input[type="search"], .yasr .tableFilter', 'Filter the results');
  root
    .querySelectorAll('.CodeMirror-scroll')
    .forEach((e) => e.getAttribute('tabindex') !== '0' && e.setAttribute('tabindex', '0'));
}

export const queryView: View = {
  title: 'Query',
  // The editor keeps what the user typed: the store changing does not redraw it.
  changes: () => false,
  async render({ main }) {
    if (!document.querySelector('link[data-yasgui]'))
      document.head.appendChild(
        h('link', { rel: 'stylesheet', href: '/console/assets/yasgui.css', 'data-yasgui': 'true' }),
      );
    const [{ default: Yasgui }, queries] = await Promise.all([import('@zazuko/yasgui'), namedQueries()]);
    if (!registered) {
      Yasgui.Yasr.registerPlugin('chart', ChartPlugin as never);
      registered = true;
    }
    const endpoint = `${location.origin}/sparql`;
    const examples = h(
      'select',
      { id: 'example', name: 'example' },
      h('option', { value: '' }, 'choose a named query…'),
      queries.map((q) => h('option', { value: q.name }, `${q.name} — ${q.title}`)),
    );
    const editor = h('div', { class: 'yasgui-host' });
    main.append(
      heading(
        'Query',
        h('form', { class: 'filters', 'aria-label': 'Examples' }, h('label', { for: 'example' }, 'Example'), examples),
      ),
      h(
        'p',
        { class: 'muted' },
        'SPARQL 1.1 over every session (the default graph is their union; ',
        h('code', {}, 'GRAPH ?session'),
        ' names each). The prefixes mcp:, jrpc:, mld:, mldx:, rdf:, rdfs:, xsd:, owl: are predeclared. Ctrl+Enter runs the query.',
      ),
      editor,
    );
    const yasgui = new Yasgui(editor, {
      requestConfig: { endpoint, method: 'GET' },
      copyEndpointOnNewTab: true,
      endpointCatalogueOptions: { getData: () => [{ endpoint }], keys: [] },
      populateFromUrl: false,
      yasqe: { autocompleters: ['variables'], editorHeight: '260px' } as never,
      yasr: { pluginOrder: ['table', 'chart', 'response'], defaultPlugin: 'table' } as never,
    } as never);
    labelEditor(editor);
    new MutationObserver(() => labelEditor(editor)).observe(editor, { childList: true, subtree: true });
    const tab = yasgui.getTab();
    // Every tab asks this service only, whatever an earlier visit kept.
    tab?.setEndpoint(endpoint);
    examples.addEventListener('change', () => {
      const query = queries.find((q) => q.name === examples.value);
      if (query?.sparql) yasgui.getTab()?.setQuery(query.sparql);
    });
  },
};
