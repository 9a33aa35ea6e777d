// Builds RDF-JS quads (default graph) for the generated ontology and shapes: named nodes, literals, blank nodes with
// deterministic labels, and RDF lists. Pure: the same calls in the same order give the same quads, labels included.
import {
  DataFactory,
  type BlankNode,
  type Literal,
  type NamedNode,
  type Quad,
  type Quad_Object,
  type Quad_Subject,
} from 'n3';
import { rdf, xsd } from '../rdf/index.js';

const { namedNode, literal, blankNode, quad } = DataFactory;

export type Subject = Quad_Subject;
export type Term = Quad_Object;

export class GraphBuilder {
  readonly quads: Quad[] = [];
  private blanks = 0;

  /** `prefix` keeps the blank-node labels of two graphs apart (`o` for the ontology, `s` for the shapes). */
  constructor(private readonly prefix: string) {}

  iri(value: string): NamedNode {
    return namedNode(value);
  }

  /** A literal: a plain string, a language-tagged string (`{ lang }`), or one with a datatype IRI. */
  literal(value: string | number | boolean, type: string | { lang: string } = xsd.string): Literal {
    if (typeof type === 'object') return literal(String(value), type.lang);
    return literal(String(value), namedNode(type));
  }

  blank(): BlankNode {
    return blankNode(`${this.prefix}${this.blanks++}`);
  }

  add(subject: Subject | string, predicate: string, object: Term | string): void {
    const s = typeof subject === 'string' ? namedNode(subject) : subject;
    const o = typeof object === 'string' ? namedNode(object) : object;
    this.quads.push(quad(s, namedNode(predicate), o));
  }

  /** An RDF list of `items` (rdf:nil when empty); the cells are blank nodes. */
  list(items: readonly (Term | string)[]): Term {
    if (items.length === 0) return namedNode(rdf.nil);
    const cells = items.map(() => this.blank());
    items.forEach((item, i) => {
      this.add(cells[i]!, rdf.first, item);
      this.add(cells[i]!, rdf.rest, i + 1 < cells.length ? cells[i + 1]! : namedNode(rdf.nil));
    });
    return cells[0]!;
  }

  /** A fresh blank node described by `describe` (restrictions, property shapes, datatype definitions). */
  node(describe: (node: BlankNode) => void): BlankNode {
    const node = this.blank();
    describe(node);
    return node;
  }
}
