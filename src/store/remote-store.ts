// The remote store: any SPARQL 1.1 Query / Update / Graph Store Protocol endpoint (Virtuoso, Fuseki, Oxigraph server,
// GraphDB, Neptune). Ingests go per graph through the Graph Store protocol as N-Triples in Turtle bodies (Virtuoso
// refuses N-Quads). Union queries and updates run over the session graphs without naming them: on Virtuoso its own
// union of all graphs less its system graphs (`define input:*-graph-exclude`, a list that does not grow with the
// sessions); elsewhere the session graphs as the protocol's dataset. A query's own FROM / FROM NAMED goes as
// the protocol's.
// Virtuoso's quirks are handled here: ASK as `__ASK_RETVAL` rows, booleans read back as "1"/"0", system graphs.
// Longer than 400 lines on purpose: one client of three protocols (Query, Update, Graph Store) that share the dataset
// rules, the HTTP client and Virtuoso's quirks.
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import type {
  GraphSummary,
  IngestReceipt,
  QueryOptions,
  QueryResult,
  QueryText,
  QuadStore,
  QueryForm,
  UpdateOptions,
} from './quad-store.js';
import { McpLdError } from '../core/problem.js';
import { storeDefaults } from '../core/config.js';
import { HttpClient, type Credentials } from './http-auth.js';
import { checkBatchUtf8, splitNQuads } from './nquads-check.js';
import {
  fromGraphText,
  fromSparqlJson,
  parseTriples,
  resultsJson,
  type LiteralFix,
  type SparqlJson,
} from './sparql-results.js';
import {
  invalidQuery,
  queryTimeout,
  resultTooLarge,
  storeFailed,
  storeUnavailable,
  updateFailed,
  updateTimeout,
} from './store-errors.js';
import { dropSolutionMarkers, limitResultText, type ResultLimits } from './result-limits.js';
import { checkGraphName, planQuery, type DatasetPlan } from './query-dataset.js';
import { graphVariablePrefix, withVariableGraphs } from './constant-graphs.js';
import { describeModePragma, excludePragmas, isSystemGraph, systemGraphsQuery } from './system-graphs.js';

export interface RemoteStoreOptions {
  /** SPARQL 1.1 Query endpoint. */
  queryUrl: string;
  /** SPARQL 1.1 Update endpoint (default: derived for Virtuoso, else queryUrl). */
  updateUrl?: string;
  /** Graph Store Protocol endpoint (default: derived for Virtuoso, else queryUrl). */
  graphsUrl?: string;
  user?: string;
  password?: string;
  /** Default query time limit in milliseconds. Default 30,000. */
  queryTimeoutMs?: number;
  /** Time limit of one upload or other request, in milliseconds. Default 120,000. */
  requestTimeoutMs?: number;
  /** Largest statement (in bytes, and so largest literal) sent. Default 8 MiB. */
  maxLiteralBytes?: number;
  /** Triples per Graph Store upload. Default 10,000. */
  uploadTriples?: number;
  /** Uploads in flight at once. Default 4. */
  concurrency?: number;
  /** How long the list of session graphs (the dataset of union queries) is reused, in ms. Default 5,000. */
  graphListTtlMs?: number;
}

const { namedNode, quad } = DataFactory;

/** A response's text, refused (422) as soon as it is longer than `maxBytes`, so that no larger answer is held. */
async function readBounded(response: Response, maxBytes: number | undefined, form: QueryForm): Promise<string> {
  if (maxBytes === undefined || !response.body) return response.text();
  const tooLarge = () => resultTooLarge({ exceeded: 'bytes', form, limit: maxBytes });
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw tooLarge(); // leaving the loop cancels the body
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function termKey(term: Term): string {
  return term.termType === 'Literal'
    ? `"${term.value}"@${term.language}^^${term.datatype.value}`
    : `${term.termType}:${term.value}`;
}

const xsdBoolean = 'http://www.w3.org/2001/XMLSchema#boolean';

const xsdDateTime = 'http://www.w3.org/2001/XMLSchema#dateTime';

/**
 * A time's canonical form (XSD 1.1 §3.3.7.2: no trailing zeros in the seconds' fraction), as the embedded store gives
 * it.
 */
function canonicalDateTime(value: string): string {
  return value.replace(/(\.\d*?)0+(?=Z$|[+-]\d\d:\d\d$|$)/, '$1').replace(/\.(?=Z$|[+-]\d\d:\d\d$|$)/, '');
}

const xsdDouble = 'http://www.w3.org/2001/XMLSchema#double';

/** Virtuoso's default MaxSortedTopRows: the most rows it sorts for an ORDER BY with LIMIT (SR353 past it). */
const virtuosoSortedTopRows = 10_000;

/** A whole double as the embedded store writes it (`4`, where Virtuoso writes `4.0`); other doubles as they are. */
function wholeDouble(value: string): string {
  return value.replace(/^(-?\d+)\.0$/, '$1');
}

/**
 * Virtuoso reads booleans back as "1" and "0", times with three digits of fraction (`.970Z`), and whole doubles with a
 * `.0`.
 */
const fixLiteral: LiteralFix = (value, datatype) =>
  datatype === xsdBoolean
    ? value === '1'
      ? 'true'
      : value === '0'
        ? 'false'
        : value
    : datatype === xsdDateTime
      ? canonicalDateTime(value)
      : datatype === xsdDouble
        ? wholeDouble(value)
        : value;

/** The dataset of a query over no graph at all (an empty store), so the store does not fall back to all its graphs. */
const noGraph = 'urn:mcp-ld:no-graph';

/**
 * How a query names its dataset: graphs as the protocol's parameters (a list not given: none sent, so the store's own
 * default — on Virtuoso all its graphs; an empty list: no graph), and pragmas put before its text.
 */
interface SentDataset {
  defaultGraphs?: readonly string[];
  namedGraphs?: readonly string[];
  pragmas?: string;
}

type RequestKind = 'ingest' | 'query' | 'update' | 'read' | 'delete';

function derivedEndpoint(queryUrl: string, authenticated: boolean, kind: 'update' | 'graphs'): string {
  const url = new URL(queryUrl);
  // Virtuoso: /sparql (anonymous, read-only) and /sparql-auth; updates on /sparql-auth, graphs on
  // /sparql-graph-crud(-auth).
  if (url.pathname === '/sparql' || url.pathname === '/sparql-auth') {
    url.search = '';
    if (kind === 'graphs') url.pathname = authenticated ? '/sparql-graph-crud-auth' : '/sparql-graph-crud';
    else url.pathname = authenticated ? '/sparql-auth' : '/sparql';
    return url.href;
  }
  return queryUrl;
}

/** The gist of an error body: plain text up to its echo of the query, or the text of an HTML page. */
function firstLines(text: string): string {
  let plain = text;
  if (/^\s*<(?:!DOCTYPE|html)/i.test(text)) {
    plain = text
      .replace(/<head>[\s\S]*?<\/head>/i, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  const cut = plain
    .split(/\r?\n\s*\r?\n|SPARQL query:/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  return cut.length > 500 ? `${cut.slice(0, 500)}…` : cut;
}

export class RemoteStore implements QuadStore {
  readonly kind = 'remote' as const;
  readonly queryUrl: string;
  readonly updateUrl: string;
  readonly graphsUrl: string;
  private readonly http: HttpClient;
  private readonly queryTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly maxLiteralBytes: number;
  private readonly uploadTriples: number;
  private readonly concurrency: number;
  private readonly graphListTtlMs: number;
  private graphList: { graphs: string[]; at: number } | undefined;
  private systemGraphList: { graphs: string[]; at: number } | undefined;
  /** Whether the store is Virtuoso (its Server header), known from its first answer. */
  private virtuoso: boolean | undefined;

  /** Virtuoso's MaxSortedTopRows as Debian and OpenLink ship it, until the store is known not to be Virtuoso. */
  get sortedRowLimit(): number | undefined {
    return this.virtuoso === false ? undefined : virtuosoSortedTopRows;
  }

  private constructor(options: RemoteStoreOptions) {
    const credentials: Credentials | undefined =
      options.user !== undefined && options.password !== undefined
        ? { user: options.user, password: options.password }
        : undefined;
    this.http = new HttpClient(credentials);
    this.queryUrl = options.queryUrl;
    this.updateUrl = options.updateUrl ?? derivedEndpoint(options.queryUrl, credentials !== undefined, 'update');
    this.graphsUrl = options.graphsUrl ?? derivedEndpoint(options.queryUrl, credentials !== undefined, 'graphs');
    this.queryTimeoutMs = options.queryTimeoutMs ?? storeDefaults.queryTimeoutMs;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 120_000;
    this.maxLiteralBytes = options.maxLiteralBytes ?? storeDefaults.maxLiteralBytes;
    this.uploadTriples = options.uploadTriples ?? 10_000;
    this.concurrency = options.concurrency ?? 4;
    this.graphListTtlMs = options.graphListTtlMs ?? 5_000;
  }

  /** Creates the client; it does not contact the store (a store that is down fails the first request with 503). */
  static async open(options: RemoteStoreOptions): Promise<RemoteStore> {
    return new RemoteStore(options);
  }

  get location(): string {
    return this.queryUrl;
  }

  async ingest(input: string | Uint8Array): Promise<IngestReceipt> {
    if (typeof input !== 'string') checkBatchUtf8(input);
    const nquads =
      typeof input === 'string'
        ? input
        : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
    this.checkStatementSizes(nquads);
    const batch = splitNQuads(nquads);
    if (batch.quads === 0) return { quads: 0, graphs: [] };
    const uploads: { graph: string; lines: string[] }[] = [];
    for (const [graph, lines] of batch.triples) {
      // Blank nodes are scoped to one upload: a graph that has any goes up in one piece.
      const whole = lines.length <= this.uploadTriples || lines.some((line) => line.includes('_:'));
      if (whole) uploads.push({ graph, lines });
      else
        for (let i = 0; i < lines.length; i += this.uploadTriples)
          uploads.push({ graph, lines: lines.slice(i, i + this.uploadTriples) });
    }
    this.graphList = undefined;
    let next = 0;
    let failure: unknown;
    const worker = async () => {
      while (failure === undefined && next < uploads.length) {
        const upload = uploads[next++]!;
        try {
          await this.upload(upload.graph, upload.lines);
        } catch (error) {
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, uploads.length) }, worker));
    if (failure !== undefined) throw failure;
    return { quads: batch.quads, graphs: batch.graphs };
  }

  /** A statement over the literal limit is refused before anything is sent (Virtuoso crashes on huge literals). */
  private checkStatementSizes(nquads: string): void {
    if (nquads.length <= this.maxLiteralBytes / 3) return;
    let line = 0;
    for (let start = 0; start < nquads.length;) {
      let end = nquads.indexOf('\n', start);
      if (end < 0) end = nquads.length;
      line += 1;
      if (
        end - start > this.maxLiteralBytes / 3 &&
        Buffer.byteLength(nquads.slice(start, end)) > this.maxLiteralBytes
      ) {
        throw McpLdError.of('store.literal-too-large', {
          detail: `line ${line}: a statement of ${Buffer.byteLength(nquads.slice(start, end))} bytes is over the remote store's limit of ${this.maxLiteralBytes} bytes (MCPLD_MAX_LITERAL)`,
          line,
        });
      }
      start = end + 1;
    }
  }

  private async upload(graph: string, lines: string[]): Promise<void> {
    // Virtuoso sniffs the format from the content: an @prefix line first makes it read Turtle (N-Triples is Turtle).
    const body = `@prefix mld: <https://w3id.org/mcp-ld/ns#> .\n${lines.join('\n')}\n`;
    const response = await this.request(
      'ingest',
      this.graphUrl(graph),
      { method: 'POST', headers: { 'content-type': 'text/turtle; charset=utf-8' }, body },
      this.requestTimeoutMs,
    );
    if (!response.ok)
      throw await this.refused('ingest', response, `uploading ${lines.length} triples to graph <${graph}>`);
    await response.arrayBuffer();
  }

  async query(sparql: string, options: QueryOptions = {}): Promise<QueryResult> {
    // The dataset goes as the protocol's parameters alone: Virtuoso merges a query's FROM into them.
    const { form, dataset, textWithoutDataset } = planQuery(sparql, options);
    const limits: ResultLimits = {};
    if (options.maxRows !== undefined) limits.maxRows = options.maxRows;
    if (options.maxBytes !== undefined) limits.maxBytes = options.maxBytes;
    return this.runQuery(
      textWithoutDataset,
      form,
      await this.protocolDataset(dataset),
      options.timeoutMs ?? this.queryTimeoutMs,
      undefined,
      limits,
    );
  }

  /**
   * The dataset as the protocol's parameters (the query's own FROM / FROM NAMED too, taken out of its text): a graph
   * of the store's own (a system graph) is left out of every dataset, an empty graph.
   */
  private async protocolDataset(plan: DatasetPlan): Promise<SentDataset> {
    if (plan.kind === 'union' || plan.kind === 'session') {
      const defaultGraphs = plan.kind === 'session' ? [plan.graph] : undefined;
      const system = await this.systemGraphs();
      if (this.virtuoso)
        return {
          ...(defaultGraphs ? { defaultGraphs } : {}),
          pragmas: excludePragmas(system, defaultGraphs ? ['named'] : ['default', 'named']),
        };
      const sessions = await this.sessionGraphs();
      return { defaultGraphs: defaultGraphs ?? sessions, namedGraphs: sessions };
    }
    const sessionGraph = (graph: string) => !isSystemGraph(graph);
    return {
      defaultGraphs: plan.defaultGraphs.filter(sessionGraph),
      namedGraphs: plan.namedGraphs.filter(sessionGraph),
    };
  }

  /**
   * The answer read here (where Virtuoso's quirks are mended) and written again as SPARQL JSON results or N-Triples:
   * the thread that reads the text then does the costly part, writing it in the format asked for.
   */
  async queryText(sparql: string, options: QueryOptions = {}): Promise<QueryText> {
    const result = await this.query(sparql, options);
    const text =
      result.form === 'SELECT' || result.form === 'ASK'
        ? JSON.stringify(resultsJson(result))
        : new Writer({ format: 'N-Triples' }).quadsToString(result.quads);
    return { form: result.form, data: new TextEncoder().encode(text) };
  }

  private async runQuery(
    sparql: string,
    form: QueryForm,
    dataset: SentDataset | undefined,
    timeoutMs: number,
    cut?: { maxRows?: number },
    limits: ResultLimits = {},
  ): Promise<QueryResult> {
    // Virtuoso's union less its system graphs needs GRAPH <iri> patterns written as GRAPH ?v (constant-graphs.ts).
    const pragmas = dataset?.pragmas ? `${form === 'DESCRIBE' ? describeModePragma : ''}${dataset.pragmas}` : '';
    const params = new URLSearchParams({ query: pragmas ? `${pragmas}${withVariableGraphs(sparql)}` : sparql });
    // An empty list is sent as a graph that does not exist: no graph given would mean the store's own default.
    const send = (name: string, graphs: readonly string[] | undefined) => {
      for (const graph of graphs === undefined ? [] : graphs.length > 0 ? graphs : [noGraph])
        params.append(name, graph);
    };
    send('default-graph-uri', dataset?.defaultGraphs);
    send('named-graph-uri', dataset?.namedGraphs);
    // Virtuoso and Fuseki stop a query at `timeout` (ms) on their side too, instead of running on after we gave up.
    params.set('timeout', String(timeoutMs));
    const graphForm = form === 'CONSTRUCT' || form === 'DESCRIBE';
    const accept = graphForm ? 'application/n-triples, text/turtle;q=0.8' : 'application/sparql-results+json';
    const response = await this.request(
      'query',
      this.queryUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
        body: params.toString(),
      },
      timeoutMs,
    );
    if (!response.ok) throw await this.refused('query', response, 'running a query');
    // Virtuoso answers a query that reached its time limit with partial results and this header.
    if (response.headers.get('x-sql-state') === 'S1TAT') {
      await response.arrayBuffer();
      throw queryTimeout(timeoutMs, ' (the remote store stopped it)');
    }
    // Virtuoso cuts results at its ResultSetMaxRows silently, but for this header: say so rather than answer wrong.
    const maxRows = response.headers.get('x-sparql-maxrows');
    if (maxRows !== null && cut) cut.maxRows = Number(maxRows);
    else if (maxRows !== null) {
      await response.arrayBuffer();
      throw McpLdError.of('query.truncated', {
        detail: `the remote store returned only the first ${maxRows} results (its ResultSetMaxRows): narrow the query, page it with LIMIT and OFFSET, or raise that limit`,
      });
    }
    const text = await readBounded(response, limits.maxBytes, form);
    if (graphForm) {
      const type = response.headers.get('content-type') ?? '';
      const result = fromGraphText(form, text, /turtle/i.test(type) ? 'Turtle' : 'N-Triples');
      if (result.form === 'SELECT' || result.form === 'ASK') return result;
      const { quads, solutions } =
        form === 'CONSTRUCT'
          ? dropSolutionMarkers(result.quads)
          : { quads: result.quads, solutions: result.quads.length };
      if (limits.maxRows !== undefined && solutions > limits.maxRows)
        throw resultTooLarge({ exceeded: 'rows', form, limit: limits.maxRows });
      return { form: result.form, quads };
    }
    const limited = limitResultText(form, text, limits);
    if ('exceeded' in limited) throw resultTooLarge(limited);
    const json = JSON.parse(text) as SparqlJson;
    if (form === 'ASK' && typeof json.boolean !== 'boolean') {
      // Virtuoso: one row `__ASK_RETVAL` = 1 for true, no rows (or 0) for false.
      const rows = json.results?.bindings ?? [];
      const value = rows[0]?.['__ASK_RETVAL']?.value;
      return { form, boolean: rows.length > 0 && value !== '0' && value !== 'false' };
    }
    const result = fromSparqlJson(form as 'SELECT' | 'ASK', json, fixLiteral);
    if (result.form !== 'SELECT' || !result.variables.some((v) => v.startsWith(graphVariablePrefix))) return result;
    // A SELECT * of a rewritten query also answers the graph variables the rewrite added.
    const variables = result.variables.filter((v) => !v.startsWith(graphVariablePrefix));
    for (const row of result.rows)
      for (const name of [...row.keys()]) if (name.startsWith(graphVariablePrefix)) row.delete(name);
    return { ...result, variables };
  }

  /**
   * Sends an update to the update endpoint. Its WHERE sees the session graphs as its named graphs (the protocol's
   * using-named-graph-uri), so `GRAPH ?g` never reaches the store's own graphs; parse-update.ts has refused WITH and
   * USING, which the protocol forbids beside them, and patterns outside GRAPH. Virtuoso applies the operations of one
   * request one after the other: when one fails, those before it stay applied.
   */
  async update(sparql: string, options: UpdateOptions = {}): Promise<void> {
    const system = await this.systemGraphs();
    const params = new URLSearchParams({
      update: this.virtuoso ? `${excludePragmas(system, ['named'])}${withVariableGraphs(sparql)}` : sparql,
    });
    if (!this.virtuoso) {
      const graphs = await this.sessionGraphs();
      for (const graph of graphs.length > 0 ? graphs : [noGraph]) params.append('using-named-graph-uri', graph);
    }
    this.graphList = undefined;
    this.systemGraphList = undefined;
    const timeoutMs = options.timeoutMs ?? this.queryTimeoutMs;
    const response = await this.request(
      'update',
      this.updateUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString() },
      timeoutMs,
    );
    if (!response.ok) throw await this.refused('update', response, 'applying an update');
    await response.arrayBuffer();
  }

  /**
   * The store's system graphs, which Virtuoso's union must be told to leave out; kept for a few seconds (our ingests
   * and deletes touch session graphs only) and dropped after an update. Its first answer tells whether it is Virtuoso.
   */
  private async systemGraphs(): Promise<string[]> {
    if (this.systemGraphList && performance.now() - this.systemGraphList.at < this.graphListTtlMs)
      return this.systemGraphList.graphs;
    const result = await this.runQuery(systemGraphsQuery, 'SELECT', undefined, this.queryTimeoutMs);
    if (result.form !== 'SELECT') throw storeFailed('unexpected answer to the list of system graphs');
    const graphs = result.rows
      .map((row) => row.get('g'))
      .flatMap((g) => (g?.termType === 'NamedNode' && isSystemGraph(g.value) ? [g.value] : []));
    this.systemGraphList = { graphs, at: performance.now() };
    return graphs;
  }

  /**
   * The session graphs, for the dataset of union queries on a store that is not Virtuoso; kept for a few seconds and
   * dropped after our own writes.
   */
  private async sessionGraphs(): Promise<string[]> {
    if (this.graphList && performance.now() - this.graphList.at < this.graphListTtlMs) return this.graphList.graphs;
    const graphs = (await this.graphs()).map((g) => g.graph);
    this.graphList = { graphs, at: performance.now() };
    return graphs;
  }

  async graphs(): Promise<GraphSummary[]> {
    const result = await this.runQuery(
      'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g',
      'SELECT',
      undefined,
      this.queryTimeoutMs,
    );
    if (result.form !== 'SELECT') throw storeFailed('unexpected answer to the graph list');
    const graphs: GraphSummary[] = [];
    for (const row of result.rows) {
      const g = row.get('g');
      const n = row.get('n');
      if (g?.termType !== 'NamedNode' || isSystemGraph(g.value)) continue;
      graphs.push({ graph: g.value, quads: Number(n?.value ?? 0) });
    }
    return graphs.sort((a, b) => (a.graph < b.graph ? -1 : a.graph > b.graph ? 1 : 0));
  }

  async graphQuads(graph: string): Promise<Quad[]> {
    checkGraphName(graph);
    const expected = await this.countGraph(graph);
    if (expected === 0) return [];
    const response = await this.request(
      'read',
      this.graphUrl(graph),
      { method: 'GET', headers: { accept: 'application/n-triples, text/turtle;q=0.8' } },
      this.requestTimeoutMs,
    );
    if (response.status === 404) {
      await response.arrayBuffer();
      return [];
    }
    if (!response.ok) throw await this.refused('read', response, `reading graph <${graph}>`);
    const type = response.headers.get('content-type') ?? '';
    const quads = parseTriples(await response.text(), graph, /turtle/i.test(type) ? 'Turtle' : 'N-Triples');
    if (quads.length >= expected) return quads;
    // Virtuoso cuts a Graph Store GET at its ResultSetMaxRows without a word: page through the graph instead, in
    // pages of what it did send (unordered pages: ORDER BY past its sort limit fails), and check the count.
    return this.pagedGraphQuads(graph, expected, quads.length);
  }

  async graphText(graph: string): Promise<Uint8Array> {
    const quads = await this.graphQuads(graph);
    return new TextEncoder().encode(
      new Writer({ format: 'N-Triples' }).quadsToString(quads.map((q) => quad(q.subject, q.predicate, q.object))),
    );
  }

  private async countGraph(graph: string): Promise<number> {
    const result = await this.runQuery(
      `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`,
      'SELECT',
      { defaultGraphs: [graph], namedGraphs: [graph] },
      this.queryTimeoutMs,
    );
    return result.form === 'SELECT' ? Number(result.rows[0]?.get('n')?.value ?? 0) : 0;
  }

  private async pagedGraphQuads(graph: string, expected: number, pageSize: number): Promise<Quad[]> {
    const seen = new Map<string, Quad>();
    const target = namedNode(graph);
    for (let offset = 0; offset < expected; offset += pageSize) {
      const cut: { maxRows?: number } = {};
      const page = await this.runQuery(
        `SELECT ?s ?p ?o WHERE { GRAPH <${graph}> { ?s ?p ?o } } LIMIT ${pageSize} OFFSET ${offset}`,
        'SELECT',
        { defaultGraphs: [graph], namedGraphs: [graph] },
        this.requestTimeoutMs,
        cut,
      );
      if (page.form !== 'SELECT') break;
      if (cut.maxRows !== undefined && cut.maxRows > 1) {
        // The page reached the store's cap: it may be short; take it again in pages under the cap.
        pageSize = cut.maxRows - 1;
        offset -= pageSize;
        continue;
      }
      for (const row of page.rows) {
        const q = quad(
          row.get('s') as Quad['subject'],
          row.get('p') as Quad['predicate'],
          row.get('o') as Quad['object'],
          target,
        ) as Quad;
        seen.set(`${q.subject.value}\u0000${q.predicate.value}\u0000${termKey(q.object)}`, q);
      }
    }
    if (seen.size < expected) {
      throw McpLdError.of('query.truncated', {
        detail: `graph <${graph}> has ${expected} quads but the remote store returned ${seen.size} (it cuts answers at ${pageSize} rows: raise its ResultSetMaxRows)`,
      });
    }
    return [...seen.values()];
  }

  async deleteGraph(graph: string): Promise<boolean> {
    checkGraphName(graph);
    this.graphList = undefined;
    const response = await this.request('delete', this.graphUrl(graph), { method: 'DELETE' }, this.requestTimeoutMs);
    await response.arrayBuffer();
    if (response.status === 404) return false;
    if (!response.ok) throw await this.refused('delete', response, `deleting graph <${graph}>`);
    return true;
  }

  async size(): Promise<number> {
    return (await this.graphs()).reduce((sum, g) => sum + g.quads, 0);
  }

  async close(): Promise<void> {}

  private graphUrl(graph: string): string {
    const url = new URL(this.graphsUrl);
    url.searchParams.set('graph', graph);
    return url.href;
  }

  private async request(
    what: RequestKind,
    url: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
    timeoutMs: number,
  ): Promise<Response> {
    try {
      const response = await this.http.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      this.virtuoso ??= /^Virtuoso\//.test(response.headers.get('server') ?? '');
      return response;
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        if (what === 'query') throw queryTimeout(timeoutMs);
        if (what === 'update')
          throw updateTimeout(timeoutMs, ' (waiting for the remote store, which may still apply it)');
        throw storeUnavailable(
          `the remote store at ${new URL(url).origin} did not answer within ${timeoutMs} ms (${what}); nothing of this request is acknowledged`,
        );
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const unacknowledged =
        what === 'ingest'
          ? '; nothing of this batch is acknowledged'
          : what === 'update'
            ? '; the update is not acknowledged'
            : '';
      throw storeUnavailable(
        `cannot reach the remote store at ${new URL(url).origin} (${cause?.code ?? cause?.message ?? (error as Error).message})${unacknowledged}`,
      );
    }
  }

  private async refused(what: RequestKind, response: Response, doing: string): Promise<McpLdError> {
    const text = firstLines(await response.text().catch(() => ''));
    const status = `${response.status} ${response.statusText}`.trim();
    if (what === 'query' && /^Virtuoso 22023 Error SR353/.test(text))
      return invalidQuery(
        `the remote store sorts at most its MaxSortedTopRows rows (${virtuosoSortedTopRows} unless raised) for an ORDER BY with LIMIT and OFFSET: lower LIMIT + OFFSET, or raise MaxSortedTopRows in [Parameters] of virtuoso.ini (${text})`,
      );
    if (what === 'query' && response.status === 400)
      return invalidQuery(`the remote store refused the query: ${text || status}`);
    // Virtuoso answers 500 to updates it refuses (a DROP of a graph it never created): SQL states 22… and 37… are
    // those.
    if (what === 'update' && (response.status === 400 || /^Virtuoso (?:22|37)\w{3} Error/.test(text)))
      return updateFailed(
        `the remote store refused the update: ${text || status} (operations of the update before the one it refused may be applied)`,
      );
    if (response.status === 401 || response.status === 403) {
      return storeUnavailable(
        `the remote store refused ${doing} (${status}): check MCPLD_STORE_USER / MCPLD_STORE_PASSWORD and the user's rights`,
      );
    }
    return storeUnavailable(
      `the remote store answered ${status} when ${doing}${text ? `: ${text}` : ''}${what === 'ingest' ? '; the batch is not acknowledged' : ''}`,
    );
  }
}
