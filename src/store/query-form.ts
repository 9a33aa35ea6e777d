// Tells the form of a SPARQL query (SELECT, ASK, CONSTRUCT, DESCRIBE) from its first keyword after the prologue, so a
// store can ask for the right result format; refuses updates and anything that is not a query.
import type { QueryForm } from './quad-store.js';
import { invalidQuery } from './store-errors.js';

const forms = new Set<string>(['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE']);
const updates = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'DROP', 'CREATE', 'ADD', 'MOVE', 'COPY', 'WITH']);

export function queryForm(sparql: string): QueryForm {
  let i = 0;
  const n = sparql.length;
  const skipSpace = () => {
    for (;;) {
      while (i < n && /\s/.test(sparql[i]!)) i++;
      if (sparql[i] !== '#') return;
      while (i < n && sparql[i] !== '\n') i++;
    }
  };
  const word = () => {
    const start = i;
    while (i < n && /[A-Za-z]/.test(sparql[i]!)) i++;
    return sparql.slice(start, i).toUpperCase();
  };
  const skipIri = () => {
    skipSpace();
    if (sparql[i] !== '<') throw invalidQuery('the prologue of the query is malformed: an IRI in <...> was expected');
    const close = sparql.indexOf('>', i);
    if (close < 0) throw invalidQuery('the prologue of the query is malformed: an IRI is not closed');
    i = close + 1;
  };
  for (;;) {
    skipSpace();
    const keyword = word();
    if (keyword === 'BASE') {
      skipIri();
    } else if (keyword === 'PREFIX') {
      skipSpace();
      const colon = sparql.indexOf(':', i);
      if (colon < 0) throw invalidQuery('the prologue of the query is malformed: a prefix name was expected');
      i = colon + 1;
      skipIri();
    } else if (forms.has(keyword)) {
      return keyword as QueryForm;
    } else if (updates.has(keyword)) {
      throw invalidQuery(`${keyword} is a SPARQL update: only queries (SELECT, ASK, CONSTRUCT, DESCRIBE) are accepted here`);
    } else {
      throw invalidQuery(keyword ? `a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, not ${keyword}` : 'the text is not a SPARQL query');
    }
  }
}
