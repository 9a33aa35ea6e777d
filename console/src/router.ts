// The console's place is in the URL's fragment: `#/view?filter=value…`, so that every view and its filters is a link
// to share (the page itself is always /).
interface Place {
  view: string;
  params: URLSearchParams;
}

export function currentPlace(): Place {
  const hash = location.hash.startsWith('#/') ? location.hash.slice(2) : '';
  const [view = '', search = ''] = hash.split('?', 2);
  return { view: view || 'overview', params: new URLSearchParams(search) };
}

/** The link to a view with its parameters (empty values left out). */
export function link(view: string, params: Record<string, string | number | boolean | undefined | null> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '' && value !== false) search.set(key, String(value));
  const text = search.toString();
  return `#/${view}${text ? `?${text}` : ''}`;
}

/** Goes to a view; `replace` keeps the browser's history from growing with every filter changed. */
export function go(
  view: string,
  params: Record<string, string | number | boolean | undefined | null> = {},
  replace = false,
): void {
  const target = link(view, params);
  if (target === location.hash) return;
  if (replace) {
    history.replaceState(null, '', target);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = target;
  }
}

/** The parameters of the current place with some changed. */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | number | boolean | undefined | null>,
): Record<string, string> {
  const merged: Record<string, string> = Object.fromEntries(params.entries());
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === null || value === '' || value === false) delete merged[key];
    else merged[key] = String(value);
  }
  return merged;
}
