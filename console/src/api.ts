// The console's calls to the service: only GET requests to this origin (named queries as plain JSON rows, one
// message lowered or as triples, the ontology, the named queries' list). A problem+json answer becomes an error that
// says what the service said.
type Value = string | number | boolean;
export type Row = Record<string, Value | undefined>;
type Params = Record<string, Value | undefined | null>;

class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function query(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function get(url: string, accept: string): Promise<Response> {
  const response = await fetch(url, { headers: { accept } });
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.json()) as { title?: string; detail?: string };
      detail = `${body.title ?? response.status}: ${body.detail ?? ''}`;
    } catch {
      // not problem+json: the status says it
    }
    throw new ServiceError(response.status, detail);
  }
  return response;
}

/** A named query's rows (GET /queries/{name}, Accept: application/json). */
export async function rows(name: string, params: Params = {}): Promise<Row[]> {
  return (await (
    await get(`/queries/${encodeURIComponent(name)}${query(params)}`, 'application/json')
  ).json()) as Row[];
}

/** The capture record of one message, lowered from the graph: `msg` exactly as it was on the wire. */
interface LoweredRecord {
  session: string;
  dir: 'c2s' | 's2c';
  seq?: number;
  ts?: string;
  server?: string;
  msg?: unknown;
  raw?: string;
  http?: Record<string, string>;
}

function messageUrl(session: string, order: number): string {
  return `/sessions/${encodeURIComponent(session)}/messages/${order}`;
}

export async function loweredMessage(session: string, order: number): Promise<LoweredRecord> {
  return (await (await get(messageUrl(session, order), 'application/json')).json()) as LoweredRecord;
}

/** The message's triples, as N-Triples. */
export async function messageTriples(session: string, order: number): Promise<string> {
  return (await get(messageUrl(session, order), 'application/n-triples')).text();
}

interface NamedQueryInfo {
  name: string;
  title: string;
  description: string;
  sparql?: string;
}

export async function namedQueries(): Promise<NamedQueryInfo[]> {
  return ((await (await get('/queries', 'application/json')).json()) as { queries: NamedQueryInfo[] }).queries;
}

let ontologyCache: Promise<unknown> | undefined;

/** The ontology as JSON-LD (GET /ontology), fetched once per page. */
export function ontology(): Promise<unknown> {
  ontologyCache ??= get('/ontology', 'application/ld+json').then((r) => r.json());
  return ontologyCache;
}
