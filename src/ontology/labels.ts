// Human-readable labels derived from names: `CallToolRequest` → "Call tool request" (classes, datatypes),
// `hasURITemplate` → "has URI template" (properties). Acronyms keep their capitals.
import { localName } from '../context/iris.js';

function words(name: string): string[] {
  return name.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [name];
}

function lowerWord(word: string): string {
  return /^[A-Z0-9]+$/.test(word) && word.length > 1 ? word : word.toLowerCase();
}

/** The label of a class or datatype named `name`: its words, the first capitalised. */
export function classLabel(name: string): string {
  const [first = name, ...rest] = words(name).map(lowerWord);
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/** The label of a property or individual with IRI `iri`: the words of its local name, in lower case. */
export function propertyLabel(iri: string): string {
  return words(localName(iri)).map(lowerWord).join(' ');
}
