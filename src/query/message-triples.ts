// The triples of one message of a session: the message's node and every node below its IRI (params, result, list
// cells, the nodes derived from its JSON) and its JSON-RPC id's node (scoped by the session: `<session>/id/…`), found
// level by level from the message node with one look-up by subject
// per level, so that one message of a 50,000-message session costs what the message holds, never a scan of the session.
import type { Quad } from '@rdfjs/types';
import type { QuadStore, QueryOptions } from '../store/quad-store.js';
import { mld, xsd } from '../rdf/index.js';

/** Subjects asked for in one query (a message with 40,000 arguments has as many nodes on one level). */
const subjectsPerQuery = 1000;

/** The IRI of the message with `order` in the session graph `graph`, or undefined when it has none. */
export async function messageAt(
  store: QuadStore,
  graph: string,
  order: number,
  options: QueryOptions = {},
): Promise<string | undefined> {
  const answer = await store.query(
    `SELECT ?message WHERE { ?message <${mld.order}> "${order}"^^<${xsd.integer}> } LIMIT 1`,
    { ...options, graph },
  );
  if (answer.form !== 'SELECT') return undefined;
  return answer.rows[0]?.get('message')?.value;
}

/**
 * The triples of the message `message` of the session graph `graph`, in the order found (as quads of no graph), and
 * the session's id (the session node's mld:sessionId), which its lowered record names.
 */
export async function messageTriples(
  store: QuadStore,
  graph: string,
  message: string,
  options: QueryOptions = {},
): Promise<Quad[]> {
  const below = `${message}/`;
  const ids = `${message.slice(0, message.lastIndexOf('/message/'))}/id/`;
  const seen = new Set([message]);
  const quads: Quad[] = [];
  for (let level = [message]; level.length > 0;) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += subjectsPerQuery) {
      const subjects = level
        .slice(i, i + subjectsPerQuery)
        .map((iri) => `<${iri}>`)
        .join(' ');
      const answer = await store.query(`CONSTRUCT { ?s ?p ?o } WHERE { VALUES ?s { ${subjects} } ?s ?p ?o }`, {
        ...options,
        graph,
      });
      if (answer.form !== 'CONSTRUCT' && answer.form !== 'DESCRIBE') continue;
      for (const quad of answer.quads) {
        quads.push(quad);
        const object = quad.object;
        if (
          object.termType === 'NamedNode' &&
          (object.value.startsWith(below) || object.value.startsWith(ids)) &&
          !seen.has(object.value)
        ) {
          seen.add(object.value);
          next.push(object.value);
        }
      }
    }
    level = next;
  }
  const session = quads.find((q) => q.subject.value === message && q.predicate.value === mld.inSession)?.object;
  if (session?.termType === 'NamedNode') {
    const answer = await store.query(
      `CONSTRUCT { <${session.value}> <${mld.sessionId}> ?id } WHERE { <${session.value}> <${mld.sessionId}> ?id }`,
      { ...options, graph },
    );
    if (answer.form === 'CONSTRUCT') quads.push(...answer.quads);
  }
  return quads;
}
