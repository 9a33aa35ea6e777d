// Vocabulary: the ontology's classes, properties and datatypes (GET /ontology, JSON-LD), each with its label,
// description and the protocol versions it is defined in, searchable; the triples shown elsewhere link here by term.
import { ontology } from '../api.js';
import { h, fill, loading } from '../dom.js';
import { count } from '../format.js';
import { go, link, withParams } from '../router.js';
import { heading, type View } from '../view.js';

type Node = Record<string, unknown>;

interface VocabularyTerm {
  id: string;
  kind: string;
  label: string;
  comment: string;
  definedIn: string[];
  firstVersion?: string;
  lastVersion?: string;
  parents: string[];
  domain: string[];
  range: string[];
}

const kinds: Record<string, string> = {
  'owl:Class': 'class',
  'owl:ObjectProperty': 'property',
  'owl:DatatypeProperty': 'property',
  'owl:AnnotationProperty': 'property',
  'rdf:Property': 'property',
  'rdfs:Datatype': 'datatype',
};

const text = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(text).join(' ');
  if (value && typeof value === 'object' && '@value' in value)
    return String((value as { '@value': unknown })['@value']);
  return typeof value === 'string' ? value : '';
};
const list = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const named = (value: unknown): string[] =>
  list(value).flatMap((v) =>
    v &&
    typeof v === 'object' &&
    typeof (v as Node)['@id'] === 'string' &&
    !((v as Node)['@id'] as string).startsWith('_:')
      ? [(v as Node)['@id'] as string]
      : [],
  );

/** The named terms of the ontology, sorted by IRI. */
function vocabularyTerms(document: unknown): VocabularyTerm[] {
  const graph = ((document as Node)['@graph'] ?? []) as Node[];
  return graph
    .filter((n) => typeof n['@id'] === 'string' && /^(mcp|jrpc|mld|mldx):/.test(n['@id'] as string))
    .flatMap((n) => {
      const types = list(n['@type']).map(String);
      const kind = types.map((t) => kinds[t]).find(Boolean);
      if (!kind) return [];
      return [
        {
          id: n['@id'] as string,
          kind,
          label: text(n['rdfs:label']),
          comment: text(n['rdfs:comment']),
          definedIn: list(n['mld:definedIn']).map(text),
          ...(n['mld:firstVersion'] ? { firstVersion: text(n['mld:firstVersion']) } : {}),
          ...(n['mld:lastVersion'] ? { lastVersion: text(n['mld:lastVersion']) } : {}),
          parents: named(n['rdfs:subClassOf']),
          domain: named(n['rdfs:domain']),
          range: named(n['rdfs:range']),
        },
      ];
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

const termLink = (id: string) => h('a', { href: link('vocabulary', { term: id }) }, id);

function versions(term: VocabularyTerm): string {
  if (term.definedIn.length === 0) return 'mcp-ld’s own: every version';
  if (!term.lastVersion) return `MCP ${term.firstVersion ?? term.definedIn[0]} and later`;
  return `MCP ${term.firstVersion} to ${term.lastVersion}`;
}

function card(term: VocabularyTerm, selected: boolean): HTMLElement {
  return h(
    'article',
    { class: `term-card${selected ? ' selected' : ''}`, id: `term-${term.id.replace(':', '-')}`, 'data-term': term.id },
    h(
      'h2',
      {},
      h('a', { href: link('vocabulary', { term: term.id }) }, term.id),
      h('span', { class: `tag ${term.kind}` }, term.kind),
    ),
    term.label ? h('p', { class: 'muted' }, term.label) : null,
    h('p', { class: 'comment' }, term.comment || 'No description.'),
    h(
      'dl',
      {},
      h('dt', {}, 'Versions'),
      h(
        'dd',
        {},
        versions(term),
        term.definedIn.length > 0 ? h('span', { class: 'muted' }, ` (${term.definedIn.join(', ')})`) : null,
      ),
      term.parents.length
        ? [
            h('dt', {}, 'Subclass of'),
            h(
              'dd',
              {},
              term.parents.flatMap((p, i) => (i ? [', ', termLink(p)] : [termLink(p)])),
            ),
          ]
        : null,
      term.domain.length
        ? [
            h('dt', {}, 'Domain'),
            h(
              'dd',
              {},
              term.domain.flatMap((p, i) => (i ? [', ', termLink(p)] : [termLink(p)])),
            ),
          ]
        : null,
      term.range.length
        ? [
            h('dt', {}, 'Range'),
            h(
              'dd',
              {},
              term.range.flatMap((p, i) => (i ? [', ', termLink(p)] : [termLink(p)])),
            ),
          ]
        : null,
    ),
  );
}

export const vocabularyView: View = {
  title: 'Vocabulary',
  changes: () => false,
  async render({ params, main }) {
    const q = params.get('q') ?? '';
    const kind = params.get('kind') ?? '';
    const version = params.get('version') ?? '';
    const chosen = params.get('term');
    const results = h('div', {}, loading());
    const search = h('input', {
      type: 'search',
      id: 'vocabulary-q',
      name: 'q',
      value: q,
      placeholder: 'name, label or description',
    });
    const kindSelect = h(
      'select',
      { id: 'vocabulary-kind', name: 'kind' },
      [
        ['', 'all'],
        ['class', 'classes'],
        ['property', 'properties'],
        ['datatype', 'datatypes'],
      ].map(([value, label]) => h('option', { value: value!, selected: value === kind }, label!)),
    );
    const versionSelect = h(
      'select',
      { id: 'vocabulary-version', name: 'version' },
      h('option', { value: '' }, 'any'),
      ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'].map((v) =>
        h('option', { value: v, selected: v === version }, v),
      ),
    );
    const form = h(
      'form',
      { class: 'filters', role: 'search', 'aria-label': 'Search the vocabulary' },
      h('label', { for: 'vocabulary-q' }, 'Search'),
      search,
      h('button', { type: 'submit' }, 'Search'),
      h('label', { for: 'vocabulary-kind' }, 'Kind'),
      kindSelect,
      h('label', { for: 'vocabulary-version' }, 'Defined in'),
      versionSelect,
    );
    const apply = () =>
      go(
        'vocabulary',
        withParams(params, {
          q: search.value.trim(),
          kind: kindSelect.value,
          version: versionSelect.value,
          term: undefined,
        }),
        true,
      );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      apply();
    });
    kindSelect.addEventListener('change', apply);
    versionSelect.addEventListener('change', apply);
    main.append(heading('Vocabulary', form), results);
    const terms = vocabularyTerms(await ontology());
    const needle = q.toLowerCase();
    let shown =
      chosen && !q
        ? terms.filter((t) => t.id === chosen)
        : terms.filter(
            (t) =>
              (!needle || `${t.id} ${t.label} ${t.comment}`.toLowerCase().includes(needle)) &&
              (!kind || t.kind === kind) &&
              (!version || t.definedIn.length === 0 || t.definedIn.includes(version)),
          );
    const total = shown.length;
    shown = shown.slice(0, 200);
    fill(
      results,
      h(
        'p',
        { 'data-figure': 'terms' },
        chosen && !q
          ? [h('a', { href: link('vocabulary') }, 'All terms'), ` · ${count(terms.length)} in the ontology`]
          : `${count(total)} of ${count(terms.length)} terms${total > shown.length ? `; the first ${shown.length} shown: narrow the search` : ''}.`,
      ),
      shown.length === 0
        ? h('p', {}, chosen ? `The ontology has no term ${chosen}.` : 'No term matches.')
        : shown.map((t) => card(t, t.id === chosen)),
    );
  },
};
