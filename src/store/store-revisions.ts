// The revisions mcp-ld keeps in a remote store, so that a process reading the store learns which sessions other
// processes wrote (a `mcp-ld ingest --store`, a tap, another service): every write through mcp-ld stamps, after its
// data, the session graphs it touched with a new token, in a graph of mcp-ld's own that no query sees (a system graph,
// system-graphs.ts); the store's own stamp moves with every write. RemoteChanges reads that stamp and, when it moved,
// every graph's, and tells the graphs whose stamps differ. A write made to the store by other means than mcp-ld is
// not seen. Owns the stamps' vocabulary, the texts that write and read them, and what is told of them.
import { randomUUID } from 'node:crypto';
import type { Term } from '@rdfjs/types';
import { StoreChanges, type StoreChange } from './store-changes.js';

/** The graph of the stamps. */
export const revisionsGraph = 'https://w3id.org/mcp-ld/store/revisions';
const stampedBy = 'https://w3id.org/mcp-ld/store#revision';
/** The stamp of the last write whose graphs the store cannot tell (a SPARQL Update): everything may have changed. */
const unplacedBy = 'https://w3id.org/mcp-ld/store#unplacedWrite';

interface Stamp {
  token: string;
  /**
   * The SPARQL Updates that write it, in order: each a few KB at most, whatever the number of graphs (the store's own
   * stamp in the last, so a reader that sees it moved sees every graph's).
   */
  updates: string[];
}

/**
 * How much of a request the graphs' stamps may take, form-encoded as sent: a few graphs a request, as every other
 * request is small.
 */
const stampBytes = 2_500;

/** The update that replaces the stamps of `subjects` (graphs, or the stamps' graph for the store's) with `token`. */
function stampUpdate(subjects: readonly string[], token: string, unplaced: boolean): string {
  const triples = subjects.map((s) => `${s} <${stampedBy}> "${token}" .`);
  if (unplaced) triples.push(`<${revisionsGraph}> <${unplacedBy}> "${token}" .`);
  const predicates = unplaced ? `<${stampedBy}> <${unplacedBy}>` : `<${stampedBy}>`;
  return [
    `DELETE { GRAPH <${revisionsGraph}> { ?g ?p ?old } }`,
    `WHERE { GRAPH <${revisionsGraph}> { ?g ?p ?old } VALUES ?g { ${subjects.join(' ')} } VALUES ?p { ${predicates} } } ;`,
    `INSERT DATA { GRAPH <${revisionsGraph}> { ${triples.join(' ')} } }`,
  ].join('\n');
}

/**
 * A new stamp for a write to `graphs` (IRIs already checked), or to graphs unknown (`placed` false): the updates that
 * replace their stamps and, last, the store's.
 */
export function newStamp(graphs: readonly string[], placed: boolean): Stamp {
  const token = randomUUID();
  const updates: string[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const graph of graphs) {
    const subject = `<${graph}>`;
    // Each graph is named twice (the stamp it loses, the one it gets), with the token.
    const size = encodeURIComponent(`${subject} ${subject} <${stampedBy}> "${token}" . `).length;
    if (chunk.length > 0 && bytes + size > stampBytes) {
      updates.push(stampUpdate(chunk, token, false));
      [chunk, bytes] = [[], 0];
    }
    chunk.push(subject);
    bytes += size;
  }
  updates.push(stampUpdate([...chunk, `<${revisionsGraph}>`], token, !placed));
  return { token, updates };
}

/** The store's own stamp: one row, or none before mcp-ld's first write. */
const storeStampQuery = `SELECT ?r WHERE { GRAPH <${revisionsGraph}> { <${revisionsGraph}> <${stampedBy}> ?r } }`;

/** Every stamp: one row per stamped graph, and the store's. */
export const stampsQuery = `SELECT ?g ?p ?r WHERE { GRAPH <${revisionsGraph}> { ?g ?p ?r } }`;

type Row = Map<string, Term>;

interface Stamps {
  store: string | undefined;
  unplaced: string | undefined;
  graphs: Map<string, string>;
}

function readStamps(rows: Row[]): Stamps {
  const stamps: Stamps = { store: undefined, unplaced: undefined, graphs: new Map() };
  for (const row of rows) {
    const [g, p, r] = [row.get('g')?.value, row.get('p')?.value, row.get('r')?.value];
    if (g === undefined || r === undefined) continue;
    if (g === revisionsGraph) {
      if (p === stampedBy) stamps.store = r;
      else if (p === unplacedBy) stamps.unplaced = r;
    } else if (p === stampedBy) stamps.graphs.set(g, r);
  }
  return stamps;
}

/**
 * The changes of a remote store: its own writes told as it makes them, other processes' read from the stamps, every
 * `pollMs` while someone listens and whenever `current` is asked.
 */
export class RemoteChanges extends StoreChanges {
  private seen: Stamps | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The look under way, and the one that starts after it (which every caller since it began waits for). */
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    /** Rows of a SELECT over the store as it is (no dataset of mcp-ld's). */
    private readonly select: (sparql: string) => Promise<Row[]>,
    private readonly pollMs: number,
  ) {
    super();
  }

  override listen(listener: (change: StoreChange) => void): () => void {
    const stop = super.listen(listener);
    this.timer ??= setInterval(() => void this.current().catch(() => undefined), this.pollMs).unref();
    return () => {
      stop();
      if (this.listening === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  /**
   * Reads the stamps (a look that began before the call does not count) and tells what moved; rejects when the store
   * does.
   */
  override current(): Promise<void> {
    this.queued ??= (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        this.running = this.look().finally(() => (this.running = undefined));
        return this.running;
      });
    return this.queued;
  }

  /** Told by the store once its own write is stamped with `token`: told now, and not again when read back. */
  wrote(graphs: readonly string[], token: string, placed: boolean): void {
    if (this.seen) {
      for (const graph of graphs) this.seen.graphs.set(graph, token);
      if (!placed) this.seen.unplaced = token;
      // The store's stamp is left as last read: a write of another process before this one is still to be found.
    }
    this.emit({ graphs: placed ? [...graphs] : [] });
  }

  private async look(): Promise<void> {
    if (this.seen) {
      const [row] = await this.select(storeStampQuery);
      if (row?.get('r')?.value === this.seen.store) return;
    }
    const now = readStamps(await this.select(stampsQuery));
    const before = this.seen;
    this.seen = now;
    if (!before) return;
    if (now.unplaced !== before.unplaced) {
      this.emit({ graphs: [] });
      return;
    }
    const moved = [...now.graphs].filter(([graph, token]) => before.graphs.get(graph) !== token).map(([g]) => g);
    for (const graph of before.graphs.keys()) if (!now.graphs.has(graph)) moved.push(graph);
    if (moved.length > 0) this.emit({ graphs: moved.sort() });
  }
}
