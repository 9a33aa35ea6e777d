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

/** A piece of N-Quads text: a string, or, for a writer of bytes, the UTF-8 bytes of a piece that repeats. */
export type NQuadsPiece = string | Uint8Array;

/**
 * Collects the pieces of a message's N-Quads lines and joins them once. Each piece goes into the array as it is:
 * a template literal per line would build a cons string per line (garbage), which the join then has to flatten
 * piece by piece; V8 joins an array of flat strings with one copy each. The join costs about as much per piece as
 * per hundred characters, so what repeats is one piece: a predicate with the punctuation around it, and the end of
 * a line (object's closing punctuation, datatype, graph, and the next line's `<`), made once and kept: four pieces a
 * quad. A sink made `encoded` keeps those repeating pieces as UTF-8 bytes, for a writer that copies pieces into a
 * byte buffer (copying bytes costs a third of encoding a string, call for call); its text is only given in pieces.
 */
export class NQuadsSink implements QuadSink {
  private pieces: NQuadsPiece[] = [];
  private graph: string | undefined;
  /** `> <predicate> <` (IRI object) and `> <predicate> "` (literal), by predicate. */
  private readonly beforeIri = new Map<string, NQuadsPiece>();
  private readonly beforeLiteral = new Map<string, NQuadsPiece>();
  /** The end of a line after an IRI object, a plain literal, and a literal of each datatype, in this graph, with the
   *  `<` that opens the next line (the text drops the last line's). */
  private afterIri: NQuadsPiece = '';
  private afterString: NQuadsPiece = '';
  private readonly afterTyped = new Map<string, NQuadsPiece>();
  count = 0;

  constructor(private readonly encoded = false) {}

  begin(graph: string): void {
    this.pieces = ['<'];
    this.count = 0;
    if (graph === this.graph) return;
    this.graph = graph;
    this.afterIri = this.repeating(`> <${graph}> .\n<`);
    this.afterString = this.repeating(`" <${graph}> .\n<`);
    this.afterTyped.clear();
  }

  add(subject: string, predicate: string, object: ObjectValue): void {
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
        after = this.repeating(`"^^<${object.datatype}> <${this.graph}> .\n<`);
        this.afterTyped.set(object.datatype, after);
      }
      pieces.push(after);
    }
  }

  /** `> <` + predicate + `opening` (`> <` before an IRI, `> "` before a literal), made once per predicate (they are
   *  few: the vocabulary's and the extension keys a capture uses). */
  private before(made: Map<string, NQuadsPiece>, predicate: string, opening: string): NQuadsPiece {
    let piece = made.get(predicate);
    if (piece === undefined) {
      piece = this.repeating(`> <${predicate}${opening}`);
      if (made.size >= maxKeptPredicates) made.clear();
      made.set(predicate, piece);
    }
    return piece;
  }

  /** A piece that repeats, as it is kept: a flat string, or its UTF-8 bytes. */
  private repeating(text: string): NQuadsPiece {
    return this.encoded ? Buffer.from(text, 'utf8') : flat(text);
  }

  /** The message's quads as one N-Quads text (a sink that is not `encoded`). */
  text(): string {
    return this.count === 0 ? '' : this.pieces.join('').slice(0, -1);
  }

  /**
   * The message's quads as N-Quads text in pieces (the text is their concatenation), for a writer that copies them
   * into its byte buffer one by one: cheaper than joining them into a string that is then copied again. The array is
   * the message's own (the next message gets a new one). Call it, or text(), once per message.
   */
  textPieces(): readonly NQuadsPiece[] {
    if (this.count === 0) return [];
    const pieces = this.pieces;
    // The last line's end carries the `<` of a next line that does not come.
    const last = pieces[pieces.length - 1]!;
    pieces[pieces.length - 1] = typeof last === 'string' ? last.slice(0, -1) : last.subarray(0, -1);
    return pieces;
  }
}

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
