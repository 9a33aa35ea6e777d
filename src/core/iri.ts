// What mcp-ld takes as an IRI wherever one comes in (a --base, ?base=, a graph name, a query parameter, the schema's
// own IRIs), and how an IRI is written between angle brackets (N-Quads, N-Triples, TSV): one definition for all.
// An IRI has a scheme and none of the characters N-Quads' and SPARQL's IRIREF forbid (controls, space, <>"{}|^`\),
// nor DEL and the C1 controls (U+007F-U+009F), which RFC 3987 leaves out of IRIs.

/** The characters no IRI mcp-ld takes may hold (as the inside of a regular expression's class, and as a class). */
const unsafeClass = '\\x00-\\x20<>"{}|^`\\\\\\x7F-\\x9F';

export const unsafeIriCharacters = new RegExp(`[${unsafeClass}]`);

/** The start of an absolute IRI: its scheme and colon. */
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether `text` starts with a scheme (an absolute IRI rather than a relative reference); its characters unchecked. */
export function hasIriScheme(text: string): boolean {
  return scheme.test(text);
}

/** Whether `text` is an absolute IRI that N-Quads and SPARQL can carry as it is. */
export function isAbsoluteIri(text: string): boolean {
  return scheme.test(text) && !unsafeIriCharacters.test(text);
}

/** isAbsoluteIri as a JSON Schema `pattern` (a route's query string). */
export const absoluteIriPattern = `${scheme.source}[^${unsafeClass}]*$`;

/** Characters IRIREF forbids, escaped (\uXXXX) where an IRI is written: N-Quads, N-Triples, SPARQL TSV. */
const iriRefEscaped = /[\x00-\x20<>"{}|^`\\]/;
const everyIriRefEscaped = new RegExp(iriRefEscaped.source, 'g');

/** `<iri>` as IRIREF writes it: what it cannot hold escaped as \uXXXX. */
export function iriRef(iri: string): string {
  if (!iriRefEscaped.test(iri)) return `<${iri}>`;
  return `<${iri.replace(everyIriRefEscaped, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}>`;
}
