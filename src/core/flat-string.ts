// Strings made by concatenation, flattened where they are made. V8 keeps `a + b` (and a template literal) as a tree
// of its parts, and every copy of it (an array's join, a Buffer's write) walks that tree again: an IRI the lifter
// mints and then writes as the subject or object of several quads is cheaper flat, copied once.

/** Any regular expression will do: V8 flattens the subject of a match (and keeps it flat) before it matches. */
const anything = /~/;

/**
 * `text`, the same string to JavaScript, flattened in place (one copy of its parts, made now rather than in every
 * later copy of it). An optimisation only: an engine that does not flatten here gives the same results.
 */
export function flatString(text: string): string {
  anything.test(text);
  return text;
}
