// Where the lifter's quads go. The lifter speaks in IRIs (strings) and literal forms; a sink turns them into
// RDF-JS quads (for the store, the reference engine, lowering and tests) or straight into N-Quads text (the hot
// path of conversion and ingestion: no term objects at all). IRIs reaching a sink are safe to write as they are:
// the lifter mints them from encoded segments and checks the base and the schema's IRIs once, up front.
import { createRequire } from 'node:module';
import type { DataFactory, NamedNode, Quad } from 'n3';
import { isWellFormed, type LiteralForm } from '../rdf/literals.js';
import { xsd } from '../rdf/vocabulary.js';
import { escapeLiteralValue } from '../rdf/nquads.js';

let factory: typeof DataFactory | undefined;
/** n3's term factory, loaded by the first RDF-JS sink: the N-Quads text path never needs n3 at all. */
function terms(): typeof DataFactory {
  return (factory ??= (createRequire(import.meta.url)('n3') as typeof import('n3')).DataFactory);
}

export type ObjectValue = string | LiteralForm;

export interface QuadSink {
  /** Starts the quads of one message, in the named graph `graph`. */
  begin(graph: string): void;
  add(subject: string, predicate: string, object: ObjectValue): void;
  readonly count: number;
}

/** Discards what it is given (the body, when another engine lifts it). */
export class NullSink implements QuadSink {
  count = 0;
  begin(): void {}
  add(): void {}
}

export class RdfJsSink implements QuadSink {
  quads: Quad[] = [];
  private graph: NamedNode | undefined;

  get count(): number {
    return this.quads.length;
  }

  begin(graph: string): void {
    this.quads = [];
    this.graph = terms().namedNode(graph);
  }

  add(subject: string, predicate: string, object: ObjectValue): void {
    const { namedNode, literal, quad } = terms();
    const term =
      typeof object === 'string' ? namedNode(object) : literal(wellFormed(object.value), namedNode(object.datatype));
    this.quads.push(quad(namedNode(subject), namedNode(predicate), term, this.graph ?? namedNode('urn:mcp-ld:none')));
  }
}

/**
 * Collects the pieces of a message's N-Quads lines and joins them once. Each piece goes into the array as it is:
 * a template literal per line would build a cons string per line (garbage), which the join then has to flatten
 * piece by piece; V8 joins an array of flat strings with one copy each. The join costs about as much per piece as
 * per hundred characters, so what repeats is one piece: a predicate with the punctuation around it, and the end of
 * a line (object's closing punctuation, datatype, graph, and the next line's `<`), made once and kept: four pieces a
 * quad.
 */
export class NQuadsSink implements QuadSink {
  private pieces: string[] = [];
  /** The message's lines joined so far, when it has more than `piecesPerRun` pieces: joined a run at a time. */
  private runs: string[] = [];
  private graph: string | undefined;
  /** `> <predicate> <` (IRI object) and `> <predicate> "` (literal), by predicate. */
  private readonly beforeIri = new Map<string, string>();
  private readonly beforeLiteral = new Map<string, string>();
  /** The end of a line after an IRI object, a plain literal, and a literal of each datatype, in this graph, with the
   *  `<` that opens the next line (the text drops the last line's). */
  private afterIri = '';
  private afterString = '';
  private readonly afterTyped = new Map<string, string>();
  count = 0;

  begin(graph: string): void {
    this.pieces = ['<'];
    if (this.runs.length > 0) this.runs = [];
    this.count = 0;
    if (graph === this.graph) return;
    this.graph = graph;
    this.afterIri = flat(`> <${graph}> .\n<`);
    this.afterString = flat(`" <${graph}> .\n<`);
    this.afterTyped.clear();
  }

  add(subject: string, predicate: string, object: ObjectValue): void {
    if (this.pieces.length >= piecesPerRun) this.endRun();
    const pieces = this.pieces;
    this.count += 1;
    if (typeof object === 'string') {
      pieces.push(subject, this.before(this.beforeIri, predicate, '> <'), object, this.afterIri);
      return;
    }
    pieces.push(
      subject,
      this.before(this.beforeLiteral, predicate, '> "'),
      escapeLiteralValue(wellFormed(object.value)),
    );
    if (object.datatype === xsd.string) pieces.push(this.afterString);
    else {
      let after = this.afterTyped.get(object.datatype);
      if (after === undefined) {
        after = flat(`"^^<${object.datatype}> <${this.graph}> .\n<`);
        this.afterTyped.set(object.datatype, after);
      }
      pieces.push(after);
    }
  }

  /** `> <` + predicate + `opening` (`> <` before an IRI, `> "` before a literal), made once per predicate (they are
   *  few: the vocabulary's and the extension keys a capture uses). */
  private before(made: Map<string, string>, predicate: string, opening: string): string {
    let piece = made.get(predicate);
    if (piece === undefined) {
      piece = flat(`> <${predicate}${opening}`);
      if (made.size >= maxKeptPredicates) made.clear();
      made.set(predicate, piece);
    }
    return piece;
  }

  /** Joins the pieces so far (whole lines, and the `<` of the next). */
  private endRun(): void {
    this.runs.push(this.pieces.join(''));
    this.pieces = [];
  }

  /** The message's quads as one N-Quads text. */
  text(): string {
    if (this.count === 0) return '';
    const last = this.pieces.join('').slice(0, -1);
    return this.runs.length === 0 ? last : this.runs.join('') + last;
  }

  /**
   * The message's quads as N-Quads text in parts, to be written one after the other: none much longer than a run,
   * where text() of a message with thousands of quads is one string of hundreds of KiB, which V8 allocates on fresh
   * pages of its own (a large object) and the system maps in again, page by page, for every such message.
   */
  textParts(): string[] {
    if (this.count === 0) return [];
    const last = this.pieces.join('').slice(0, -1);
    return this.runs.length === 0 ? [last] : [...this.runs, last];
  }
}

/**
 * Pieces joined into one string at a time: 256 quads, about 65,000 characters at the bench workload's 260 a line,
 * below the 128 KiB past which V8 gives a string pages of its own.
 */
const piecesPerRun = 1024;

/** Predicates kept with their punctuation: the vocabulary has a few hundred; extension keys are open-ended. */
const maxKeptPredicates = 10_000;

/**
 * `text` as one flat string: a concatenation is a tree of its parts, which every join of it would walk again. A
 * JSON round trip gives back the same code units (lone surrogates too) in a string of its own.
 */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** `value` with any lone surrogate replaced by U+FFFD (only derived data can still have one, see nquadsLiteral). */
function wellFormed(value: string): string {
  return isWellFormed(value) ? value : (value as unknown as { toWellFormed(): string }).toWellFormed();
}
