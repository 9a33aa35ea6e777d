// One session: its figures (session-summary), and its messages as a sequence diagram between a client lane and a server
// lane (session-timeline, a page at a time: a 50,000-message session costs a page). A response's arrow names the
// request it answers and its latency; errors and tool errors (isError) are marked; progress and cancellations link to
// their request; the requests and answers of one multi-round operation are grouped. A message clicked shows its JSON
// as it was on the wire (lowered from the graph) and its triples.
import { loweredMessage, messageTriples, rows, type Row } from '../api.js';
import { h, fill, loading, problem } from '../dom.js';
import { between, compact, count, duration, isClientToServer, isVocabularyTerm, millis, time } from '../format.js';
import { link, withParams } from '../router.js';
import { heading, section, type View } from '../view.js';

const messagesPerPage = 200;

interface Term {
  kind: 'iri' | 'literal' | 'blank';
  value: string;
  datatype?: string;
  language?: string;
}

const termPattern = /<([^>]*)>|_:(\S+)|"((?:[^"\\]|\\.)*)"(?:\^\^<([^>]*)>|@([A-Za-z0-9-]+))?/g;

function unescape(text: string): string {
  return text.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, e: string) => {
    if (e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}

/** The triples of an N-Triples text (the service writes one per line). */
function parseNTriples(text: string): Term[][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const terms: Term[] = [];
      for (const m of line.matchAll(termPattern)) {
        if (m[1] !== undefined) terms.push({ kind: 'iri', value: m[1] });
        else if (m[2] !== undefined) terms.push({ kind: 'blank', value: m[2] });
        else
          terms.push({
            kind: 'literal',
            value: unescape(m[3]!),
            ...(m[4] ? { datatype: m[4] } : {}),
            ...(m[5] ? { language: m[5] } : {}),
          });
        if (terms.length === 3) break;
      }
      return terms;
    });
}

/** A term as the page shows it: vocabulary terms link to the Vocabulary view. */
function termCell(term: Term, message: string): HTMLElement {
  if (term.kind === 'literal') {
    return h(
      'span',
      { class: 'literal' },
      JSON.stringify(term.value),
      term.datatype ? h('span', { class: 'muted' }, `^^${compact(term.datatype)}`) : null,
      term.language ? h('span', { class: 'muted' }, `@${term.language}`) : null,
    );
  }
  if (term.kind === 'blank') return h('span', {}, `_:${term.value}`);
  const short = compact(term.value);
  if (isVocabularyTerm(short)) return h('a', { href: link('vocabulary', { term: short }), class: 'term' }, short);
  return h(
    'span',
    { class: 'iri', title: term.value },
    term.value.startsWith(message)
      ? `<…${term.value.slice(message.length)}>`
      : short === term.value
        ? `<${term.value}>`
        : short,
  );
}

function label(r: Row): string {
  const method = (r['method'] as string) || '';
  const name = r['name'] ? ` ${r['name']}` : '';
  switch (r['kind']) {
    case 'request':
      return `${method}${name}`;
    case 'notification':
      return `${method}${name}`;
    case 'error':
      return `error ${r['errorCode'] ?? ''} (${method || 'no request'})`;
    default:
      return `result (${method || 'no request'})${r['isError'] === true ? ' · isError' : ''}`;
  }
}

async function showMessage(
  panel: HTMLElement,
  session: string,
  order: number,
  message: string | undefined,
): Promise<void> {
  const wire = h('div', {}, loading());
  const triples = h('div', {}, loading());
  fill(
    panel,
    h('h2', { id: 'message-title' }, `Message #${order}`),
    h('h3', {}, 'JSON as on the wire'),
    wire,
    h('h3', {}, 'Triples'),
    triples,
  );
  panel.hidden = false;
  try {
    const record = await loweredMessage(session, order);
    const meta = [
      record.dir === 'c2s' ? 'client → server' : 'server → client',
      record.ts ? time(record.ts) : null,
      record.seq !== undefined ? `capture seq ${record.seq}` : null,
    ]
      .filter(Boolean)
      .join(' · ');
    fill(
      wire,
      h('p', { class: 'muted' }, meta),
      record.msg !== undefined
        ? h(
            'pre',
            { class: 'json', 'data-wire': 'msg', tabindex: '0', 'aria-label': 'The message as JSON' },
            JSON.stringify(record.msg, null, 2),
          )
        : null,
      record.raw !== undefined
        ? [
            h('p', {}, 'The wire text, where it differed from the JSON:'),
            h('pre', { class: 'json', 'data-wire': 'raw', tabindex: '0' }, record.raw),
          ]
        : null,
      record.http ? h('pre', { class: 'json', 'data-wire': 'http' }, JSON.stringify(record.http, null, 2)) : null,
    );
  } catch (error) {
    fill(wire, problem(error));
  }
  try {
    const parsed = parseNTriples(await messageTriples(session, order));
    const base = message ?? '';
    fill(
      triples,
      h(
        'p',
        { class: 'muted' },
        `${count(parsed.length)} triples; `,
        h('code', {}, '<…/x>'),
        ' is a node below this message.',
      ),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'triples' },
          h('caption', { class: 'visually-hidden' }, 'Triples of the message'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Subject'),
              h('th', { scope: 'col' }, 'Predicate'),
              h('th', { scope: 'col' }, 'Object'),
            ),
          ),
          h(
            'tbody',
            {},
            parsed.map(([sj, p, o]) =>
              h(
                'tr',
                {},
                h('td', {}, sj ? termCell(sj, base) : ''),
                h('td', {}, p ? termCell(p, base) : ''),
                h('td', {}, o ? termCell(o, base) : ''),
              ),
            ),
          ),
        ),
      ),
    );
  } catch (error) {
    fill(triples, problem(error));
  }
}

export const sessionView: View = {
  title: 'Session',
  changes: ({ params }, sessions) => sessions.length === 0 || sessions.includes(params.get('id') ?? ''),
  async render({ params, main }) {
    const id = params.get('id');
    if (!id) {
      main.append(
        heading('Session'),
        h('p', {}, 'No session named. ', h('a', { href: link('sessions') }, 'Choose one'), '.'),
      );
      return;
    }
    const selected = params.has('m') ? Number(params.get('m')) : undefined;
    const from = params.has('from')
      ? Math.max(0, Number(params.get('from')) || 0)
      : selected !== undefined
        ? Math.max(0, selected - 10)
        : undefined;
    const [summary, messages] = await Promise.all([
      rows('session-summary', { session: id }),
      rows('session-timeline', { session: id, from, limit: messagesPerPage }),
    ]);
    const info = summary[0];
    if (!info) {
      main.append(heading('Session'), problem(new Error(`The store has no session ${id}.`)));
      return;
    }
    main.append(
      heading(`Session ${id}`, h('a', { href: link('sessions'), class: 'button' }, '← All sessions')),
      h(
        'div',
        { class: 'figures' },
        h(
          'div',
          { class: 'figure', 'data-figure': 'server' },
          h('span', { class: 'figure-label' }, 'Server'),
          h('span', { class: 'figure-value small' }, (info['server'] as string) ?? '–'),
          h(
            'span',
            { class: 'figure-note' },
            [info['serverImplementation'], info['serverVersion']].filter(Boolean).join(' '),
          ),
        ),
        h(
          'div',
          { class: 'figure', 'data-figure': 'client' },
          h('span', { class: 'figure-label' }, 'Client'),
          h('span', { class: 'figure-value small' }, (info['client'] as string) ?? '–'),
          h('span', { class: 'figure-note' }, (info['clientVersion'] as string) ?? ''),
        ),
        h(
          'div',
          { class: 'figure', 'data-figure': 'protocol' },
          h('span', { class: 'figure-label' }, 'Protocol version'),
          h('span', { class: 'figure-value small' }, (info['protocolVersion'] as string) ?? '–'),
        ),
        h(
          'div',
          { class: 'figure', 'data-figure': 'messages' },
          h('span', { class: 'figure-label' }, 'Messages'),
          h('span', { class: 'figure-value' }, count(info['messages'])),
        ),
        h(
          'div',
          { class: 'figure', 'data-figure': 'errors' },
          h('span', { class: 'figure-label' }, 'Errors'),
          h('span', { class: 'figure-value' }, count(info['errors'])),
        ),
        h(
          'div',
          { class: 'figure', 'data-figure': 'duration' },
          h('span', { class: 'figure-label' }, 'Duration'),
          h('span', { class: 'figure-value small' }, duration(between(info['firstMessage'], info['lastMessage']))),
          h('span', { class: 'figure-note' }, `from ${time(info['firstMessage'])}`),
        ),
      ),
    );
    const panel = h('aside', { class: 'detail panel', 'aria-labelledby': 'message-title', hidden: true });
    const byOrder = new Map(messages.map((r) => [r['order'] as number, r]));
    const operations = new Map<string, number>();
    for (const r of messages)
      if (typeof r['operation'] === 'string' && !operations.has(r['operation']))
        operations.set(r['operation'], operations.size);
    const select = (order: number) => {
      history.replaceState(null, '', link('session', withParams(params, { m: order, from })));
      for (const row of diagram.querySelectorAll('li.msg'))
        row.classList.toggle('selected', row.getAttribute('data-order') === String(order));
      void showMessage(panel, id, order, byOrder.get(order)?.['message'] as string | undefined);
    };
    const jump = (order: number) => (event: Event) => {
      const target = diagram.querySelector(`li[data-order="${order}"]`);
      if (!target) return; // on another page: the link goes there
      event.preventDefault();
      target.scrollIntoView({ block: 'center' });
      select(order);
    };
    const tie = (r: Row): (HTMLElement | string)[] => {
      const ties: (HTMLElement | string)[] = [];
      const ref = (order: number, text: string) =>
        h('a', { href: link('session', { id, m: order }), onclick: jump(order), class: 'tie' }, text);
      if (typeof r['answers'] === 'number')
        ties.push(ref(r['answers'], `↩ #${r['answers']}`), h('span', { class: 'latency' }, millis(r['latencyMs'])));
      if (typeof r['progressOf'] === 'number') ties.push(ref(r['progressOf'], `progress of #${r['progressOf']}`));
      if (typeof r['cancels'] === 'number') ties.push(ref(r['cancels'], `cancels #${r['cancels']}`));
      return ties;
    };
    const diagram = h(
      'ol',
      { class: 'sequence', 'aria-label': 'Messages between client and server' },
      messages.map((r, i) => {
        const order = r['order'] as number;
        const c2s = isClientToServer(r['direction']);
        const failed = r['kind'] === 'error' || r['isError'] === true;
        const operation = typeof r['operation'] === 'string' ? operations.get(r['operation']) : undefined;
        const opening = operation !== undefined && messages.findIndex((m) => m['operation'] === r['operation']) === i;
        return h(
          'li',
          {
            class: [
              'msg',
              c2s ? 'c2s' : 's2c',
              String(r['kind']),
              failed ? 'failed' : '',
              r['isError'] === true ? 'tool-error' : '',
              operation !== undefined ? `op op${operation % 4}` : '',
              order === selected ? 'selected' : '',
            ]
              .filter(Boolean)
              .join(' '),
            'data-order': order,
            'data-kind': r['kind'] as string,
          },
          h('span', { class: 'order' }, `#${order}`),
          h(
            'span',
            { class: 'at' },
            typeof r['at'] === 'string' ? new Date(r['at'] as string).toISOString().slice(11, 23) : '',
          ),
          h(
            'button',
            { type: 'button', class: 'arrow-cell', onclick: () => select(order) },
            h('span', { class: 'visually-hidden' }, c2s ? 'client to server: ' : 'server to client: '),
            opening ? h('span', { class: 'op-label' }, 'multi-round operation') : null,
            h(
              'span',
              { class: 'arrow-label' },
              label(r),
              typeof r['attempt'] === 'number' ? h('span', { class: 'muted' }, ` · attempt ${r['attempt']}`) : null,
              r['id'] !== undefined ? h('span', { class: 'muted' }, ` · id ${r['id']}`) : null,
            ),
            h('span', { class: 'arrow', 'aria-hidden': 'true' }),
          ),
          h('span', { class: 'ties' }, tie(r)),
        );
      }),
    );
    const first = messages[0]?.['order'] as number | undefined;
    const last = messages[messages.length - 1]?.['order'] as number | undefined;
    const goto = h('input', { type: 'number', id: 'goto', min: '0', inputmode: 'numeric', placeholder: '#' });
    const gotoForm = h(
      'form',
      { class: 'goto' },
      h('label', { for: 'goto' }, 'Go to message'),
      goto,
      h('button', { type: 'submit' }, 'Go'),
    );
    gotoForm.addEventListener('submit', (event) => {
      event.preventDefault();
      if (goto.value !== '') location.hash = link('session', { id, m: Number(goto.value) });
    });
    const pager = h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages of messages' },
      h(
        'span',
        { 'data-figure': 'message-range' },
        first === undefined
          ? 'No message here.'
          : `Messages #${first}–#${last} (${count(messages.length)} of ${count(info['messages'])})`,
      ),
      h(
        'a',
        {
          class: 'button',
          href:
            first !== undefined && first > 1 && from !== undefined
              ? link('session', { id, from: Math.max(0, first - messagesPerPage) })
              : undefined,
          'aria-disabled': from !== undefined && (first ?? 0) > 1 ? undefined : 'true',
        },
        '← Earlier',
      ),
      h(
        'a',
        {
          class: 'button',
          href:
            messages.length === messagesPerPage && last !== undefined
              ? link('session', { id, from: last + 1 })
              : undefined,
          'aria-disabled': messages.length === messagesPerPage ? undefined : 'true',
        },
        'Later →',
      ),
      gotoForm,
    );
    main.append(
      section(
        'Messages',
        pager,
        h(
          'div',
          { class: 'session-body' },
          h(
            'div',
            { class: 'lanes' },
            h(
              'div',
              { class: 'lane-heads', 'aria-hidden': 'true' },
              h('span', {}, '#'),
              h('span', {}, 'time (UTC)'),
              h('span', { class: 'lane-names' }, h('span', {}, 'Client'), h('span', {}, 'Server')),
              h('span', {}, 'answers, latency'),
            ),
            diagram,
          ),
          panel,
        ),
      ),
    );
    if (selected !== undefined && byOrder.has(selected)) {
      void showMessage(panel, id, selected, byOrder.get(selected)?.['message'] as string | undefined);
      requestAnimationFrame(() =>
        diagram.querySelector(`li[data-order="${selected}"]`)?.scrollIntoView({ block: 'center' }),
      );
    }
  },
};
