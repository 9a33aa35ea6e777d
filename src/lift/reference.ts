// The reference lifting engine: the message body — what the JSON-LD contexts describe — is converted by jsonld.js
// with the generated context of the message's definition (contexts/messages/<Definition>.jsonld); the session
// layer (types, ids, order, entities, validation) comes from the fast lifter. Before jsonld.js runs, the message
// is prepared the way JSON-LD needs: every node gets its deterministic @id and its classes, keys the schema does
// not know become extension IRIs, values whose annotated datatype does not fit them carry their own datatype.
// After it, list cells are named like the fast engine names them. Tests hold the two engines isomorphic.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonld from 'jsonld';
import { DataFactory, Parser, type Quad, type Term } from 'n3';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { contextsDir } from '../core/paths.js';
import type { Lifter, LiftedMessage } from './lifter.js';
import { isRawLine, type InputRecord } from './records.js';
import { classesFor, itemPlan, type NodePlan, type ValuePlan } from './plan.js';
import { annotatedLiteral, naturalLiteral } from '../rdf/literals.js';
import { childIri, extensionPredicate, listCellIri, rdf, xsd } from '../rdf/vocabulary.js';

const { namedNode, quad } = DataFactory;
const anyPlan: ValuePlan = { kind: 'any' };

const refuseRemote = async (url: string): Promise<never> => {
  throw McpLdError.of('jsonld.remote-refused', { detail: `mcp-ld never loads remote documents (${url})` });
};

export class ReferenceEngine {
  private readonly contexts = new Map<string, JsonValue>();

  constructor(
    private readonly lifter: Lifter,
    private readonly dir: string = contextsDir,
  ) {}

  private context(file: string): JsonValue {
    let context = this.contexts.get(file);
    if (context === undefined) {
      const full = path.join(this.dir, file);
      try {
        context = (JSON.parse(readFileSync(full, 'utf8')) as JsonObject)['@context']!;
      } catch (error) {
        throw McpLdError.of('context.missing', { detail: `cannot read ${full}: ${(error as Error).message}` });
      }
      this.contexts.set(file, context);
    }
    return context;
  }

  /** Lifts one record: the fast lifter's session layer plus jsonld.js's body. */
  async lift(record: InputRecord): Promise<LiftedMessage> {
    const lifted = this.lifter.lift(record, 'session-layer');
    if (isRawLine(record)) return lifted; // a line that was not JSON has no body
    const body = await this.body(record.msg, lifted);
    const quads = [...lifted.quads, ...body];
    return { ...lifted, quads, quadCount: quads.length };
  }

  private async body(msg: JsonObject, lifted: LiftedMessage): Promise<Quad[]> {
    const plans = this.lifter.plans;
    const bodyPlan = lifted.body;
    const document: JsonObject = { '@context': this.context(bodyPlan.context), '@id': lifted.iri };
    for (const [key, value] of Object.entries(msg)) {
      const at = childIri(lifted.iri, key);
      if (key === 'id' && bodyPlan.idIri !== undefined)
        document[plans.idPredicate] = { '@id': bodyPlan.idIri }; // `id` is unmapped in the contexts
      else if (key === 'jsonrpc') document[key] = prepareValue(value, at, plans.jsonrpc.value);
      else if (key === 'method' && typeof value === 'string')
        document[key] = prepareValue(value, at, plans.method.value);
      else if (key === 'params' && bodyPlan.params) document[key] = prepareValue(value, at, bodyPlan.params.value);
      else if (key === 'result' && bodyPlan.result)
        document[key] = prepareValue(value, at, { kind: 'node', node: bodyPlan.result });
      else if (key === 'error' && bodyPlan.error) document[key] = prepareValue(value, at, plans.error.value);
      else document[extensionPredicate(key)] = prepareValue(value, at, anyPlan);
    }
    const nquads = (await jsonld.toRDF(document as jsonld.JsonLdDocument, {
      format: 'application/n-quads',
      documentLoader: refuseRemote as never,
    })) as unknown as string;
    const graph = namedNode(lifted.iri.slice(0, lifted.iri.lastIndexOf('/message/')));
    return skolemizeLists(new Parser({ format: 'N-Quads' }).parse(nquads)).map((q) =>
      quad(q.subject, q.predicate, q.object, graph),
    );
  }
}

/** A JSON value as JSON-LD input under `plan`. */
function prepareValue(value: JsonValue, nodeIri: string, plan: ValuePlan): JsonValue {
  if (value === null) return { '@value': null, '@type': '@json' };
  if (plan.kind === 'json') return value;
  if (Array.isArray(value)) {
    const item = itemPlan(plan);
    const items = value.map((v, i) => prepareValue(v, childIri(nodeIri, i), item));
    return plan.kind === 'list' ? items : { '@list': items };
  }
  if (isJsonObject(value)) return prepareNode(value, nodeIri, plan.kind === 'node' ? plan.node : undefined);
  const form = plan.kind === 'literal' ? annotatedLiteral(value, plan.datatype) : naturalLiteral(value);
  // The context's coercion gives the same literal for strings, booleans and integers of a fitting datatype;
  // anything else (another datatype, non-integers, which JSON-LD writes as doubles) says its literal itself.
  const native =
    plan.kind === 'literal' &&
    form.datatype === plan.datatype &&
    (typeof value !== 'number' ||
      (Number.isInteger(value) && form.datatype !== xsd.double && form.datatype !== xsd.float));
  return native ? value : { '@value': form.value, '@type': form.datatype };
}

function prepareNode(value: JsonObject, iri: string, plan: NodePlan | undefined): JsonObject {
  const node: JsonObject = { '@id': iri };
  const classes = plan ? classesFor(plan, value) : [];
  if (classes.length > 0) node['@type'] = [...classes];
  for (const [key, member] of Object.entries(value)) {
    const property = plan?.properties.get(key);
    node[property ? key : extensionPredicate(key)] = prepareValue(
      member,
      childIri(iri, key),
      property?.value ?? anyPlan,
    );
  }
  return node;
}

/** Renames the blank-node cells of every RDF list after its holder, as the fast engine names them. */
function skolemizeLists(quads: Quad[]): Quad[] {
  const names = new Map<string, string>();
  const rest = new Map<string, Term>();
  for (const q of quads)
    if (q.predicate.value === rdf.rest && q.subject.termType === 'BlankNode') rest.set(q.subject.value, q.object);
  const isCell = (term: Term) => term.termType === 'BlankNode' && rest.has(term.value);
  // Holders first, then the lists below renamed cells, until every cell has a name.
  let pending = quads.filter((q) => isCell(q.object));
  while (pending.length > 0) {
    const next: Quad[] = [];
    for (const q of pending) {
      const holder = q.subject.termType === 'BlankNode' ? names.get(q.subject.value) : q.subject.value;
      if (holder === undefined) {
        next.push(q);
        continue;
      }
      if (names.has(q.object.value)) continue;
      let cell: Term | undefined = q.object;
      for (let i = 0; cell && isCell(cell); i++, cell = rest.get(cell.value))
        names.set(cell.value, listCellIri(holder, q.predicate.value, i));
    }
    if (next.length === pending.length) throw new Error('unnamed list cells left after skolemization');
    pending = next;
  }
  const rename = <T extends Term>(term: T): T =>
    term.termType === 'BlankNode' && names.has(term.value) ? (namedNode(names.get(term.value)!) as unknown as T) : term;
  return quads.map((q) => quad(rename(q.subject), q.predicate, rename(q.object), q.graph));
}
