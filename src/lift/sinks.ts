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
    const term = typeof object === 'string' ? namedNode(object) : literal(wellFormed(object.value), namedNode(object.datatype));
    this.quads.push(quad(namedNode(subject), namedNode(predicate), term, this.graph ?? namedNode('urn:mcp-ld:none')));
  }
}

/**
 * Collects the pieces of a message's N-Quads lines and joins them once. Each piece goes into the array as it is:
 * a template literal per line would build a cons string per line (garbage), which the join then has to flatten
 * piece by piece; V8 joins an array of flat strings with one copy each.
 */
export class NQuadsSink implements QuadSink {
  private pieces: string[] = [];
  private graph = '';
  count = 0;

  begin(graph: string): void {
    this.pieces = [];
    this.count = 0;
    this.graph = ` <${graph}> .\n`;
  }

  add(subject: string, predicate: string, object: ObjectValue): void {
    const pieces = this.pieces;
    this.count += 1;
    pieces.push('<', subject, '> <', predicate);
    if (typeof object === 'string') pieces.push('> <', object, '>', this.graph);
    else if (object.datatype === xsd.string) pieces.push('> "', escapeLiteralValue(wellFormed(object.value)), '"', this.graph);
    else pieces.push('> "', escapeLiteralValue(wellFormed(object.value)), '"^^<', object.datatype, '>', this.graph);
  }

  /** The message's quads as one N-Quads text. */
  text(): string {
    return this.pieces.join('');
  }
}

/** `value` with any lone surrogate replaced by U+FFFD (only derived data can still have one, see nquadsLiteral). */
function wellFormed(value: string): string {
  return isWellFormed(value) ? value : (value as unknown as { toWellFormed(): string }).toWellFormed();
}
