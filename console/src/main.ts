// The web console: a page of views over the recorded MCP traffic, each fed by the service's named queries. The view and
// its filters are in the URL (router.ts); the page redraws the view when the store changes (GET /events).
import { h, fill, problem } from './dom.js';
import { currentPlace, link } from './router.js';
import type { View } from './view.js';
import { overviewView } from './views/overview.js';
import { sessionsView } from './views/sessions.js';
import { sessionView } from './views/session.js';
import { toolsView } from './views/tools.js';
import { failuresView } from './views/failures.js';
import { queryView } from './views/query.js';
import { vocabularyView } from './views/vocabulary.js';

const views: Record<string, View> = {
  overview: overviewView,
  sessions: sessionsView,
  session: sessionView,
  tools: toolsView,
  failures: failuresView,
  query: queryView,
  vocabulary: vocabularyView,
};
const navigation: [string, string][] = [
  ['overview', 'Overview'],
  ['sessions', 'Sessions'],
  ['tools', 'Tools'],
  ['failures', 'Failures'],
  ['query', 'Query'],
  ['vocabulary', 'Vocabulary'],
];

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;
const live = document.getElementById('live')!;
let drawing = 0;

async function draw(): Promise<void> {
  const place = currentPlace();
  const view = views[place.view];
  const active = place.view === 'session' ? 'sessions' : place.view;
  for (const item of nav.querySelectorAll('a')) {
    if (item.dataset['view'] === active) item.setAttribute('aria-current', 'page');
    else item.removeAttribute('aria-current');
  }
  const ticket = ++drawing;
  if (!view) {
    document.title = 'Not found · mcp-ld console';
    fill(
      main,
      h('h1', {}, 'Not found'),
      h(
        'p',
        {},
        'There is no view ',
        h('code', {}, place.view),
        '. ',
        h('a', { href: link('overview') }, 'Go to the overview'),
        '.',
      ),
    );
    return;
  }
  document.title = `${view.title} · mcp-ld console`;
  const target = h('div', { class: 'view', 'data-view': place.view, 'aria-busy': 'true' });
  try {
    await view.render({ params: place.params, main: target });
  } catch (error) {
    target.appendChild(problem(error));
  }
  if (ticket !== drawing) return; // a newer place was asked for meanwhile
  target.setAttribute('aria-busy', 'false');
  const scroll = window.scrollY;
  fill(main, target);
  if (redrawing) window.scrollTo(0, scroll);
  document.body.dataset['ready'] = String(ticket);
}

let redrawing = false;
async function redraw(): Promise<void> {
  redrawing = true;
  try {
    await draw();
  } finally {
    redrawing = false;
  }
}

fill(
  nav,
  navigation.map(([view, label]) => h('li', {}, h('a', { href: link(view), 'data-view': view }, label))),
);
const skip = document.querySelector<HTMLAnchorElement>('a.skip');
skip?.addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', () => void draw());
void draw();

// Live: the service says when writes touched sessions; the view on screen redraws if they concern it (at most every
// second, however fast the writes come).
let changed: Set<string> | undefined;
let timer: number | undefined;
let changes = 0;
const events = new EventSource('/events');
// A page left (or kept in the back-forward cache) gives its stream back: a browser opens six connections per host.
window.addEventListener('pagehide', () => events.close());
events.addEventListener('open', () => {
  live.textContent = 'live';
  live.className = 'live on';
});
events.addEventListener('error', () => {
  live.textContent = 'reconnecting…';
  live.className = 'live off';
});
events.addEventListener('change', (event) => {
  const { sessions } = JSON.parse((event as MessageEvent<string>).data) as { sessions: string[] };
  changed ??= new Set();
  if (sessions.length === 0) changed.add('*');
  for (const session of sessions) changed.add(session);
  timer ??= window.setTimeout(() => {
    timer = undefined;
    const touched = changed ?? new Set<string>();
    changed = undefined;
    const place = currentPlace();
    const view = views[place.view];
    if (!view) return;
    const sessions = touched.has('*') ? [] : [...touched];
    if (view.changes && !view.changes({ params: place.params, main }, sessions)) return;
    changes += 1;
    live.textContent = `live · updated ${new Date().toLocaleTimeString('en-GB')}`;
    document.body.dataset['changes'] = String(changes);
    void redraw();
  }, 1000);
});
