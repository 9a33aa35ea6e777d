// Building DOM without HTML strings: every text from the store goes in as a text node, never as markup.
export type Child = Node | string | number | boolean | null | undefined | Child[];
type Attributes = Record<string, string | number | boolean | undefined | null | ((event: Event) => void)>;

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || typeof child === 'boolean') continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

/** An HTML element with attributes (`onclick`: a listener) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const svgNs = 'http://www.w3.org/2000/svg';

/** An SVG element, as `h`. */
export function s(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(svgNs, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** Replaces the children of `parent`. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A message in place of content that could not be had. */
export function problem(error: unknown): HTMLElement {
  const text = error instanceof Error ? error.message : String(error);
  return h('p', { class: 'problem', role: 'alert' }, text);
}

export function loading(what = 'Loading…'): HTMLElement {
  return h('p', { class: 'loading' }, what);
}
