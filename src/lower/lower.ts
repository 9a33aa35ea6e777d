// Stage lower: RDF → JSON. Rebuilds every lifted message, exactly, from its quads: the message plans say which
// predicate was which key, the RDF terms say what each value was (literal by datatype, list, node). Derived
// triples (types, entity links, argument pairs, validation results) are not part of any message and are skipped.
import type { Quad, Term } from '@rdfjs/types';
import type { JsonObject, JsonValue } from '../core/json.js';
import { isProtocolVersion, type Direction } from '../schema/index.js';
import { ProtocolSchemas } from '../lift/protocol-schemas.js';
import type { CaptureRecord, RawLineRecord } from '../lift/records.js';
import { MessagePlans, type MessagePlan } from '../lift/message-plans.js';
import { itemPlan, type NodePlan, type ValuePlan } from '../lift/plan.js';
import { literalToJson } from '../rdf/literals.js';
import { extensionKey, jrpc, mld, rdf } from '../rdf/vocabulary.js';

type Properties = Map<string, Term[]>;

/** A lowered capture record: a message (`msg`, and `raw` where the wire text differed), or a raw line (`raw` alone). */
export type LoweredRecord = (CaptureRecord | RawLineRecord) & {
  session: string;
  dir: Direction;
};

export class Lowerer {
  private readonly versions: ProtocolSchemas;

  /** `plans`: those of messages that do not say which protocol version lifted them (mld:schemaVersion). */
  constructor(readonly plans: MessagePlans) {
    this.versions = new ProtocolSchemas(plans.schema, plans, false);
  }

  /** Every message found in `quads`, as capture records in capture order (else session, then order). */
  lower(quads: Iterable<Quad>): LoweredRecord[] {
    const subjects = new Map<string, Properties>();
    // Duplicates (the same quad twice, or in two graphs) are dropped by key: one look-up per quad, so lowering stays
    // linear however many values one predicate has (40,000 arguments of one tools/call are 40,000 mld:argument).
    const seen = new Set<string>();
    for (const q of quads) {
      const key = q.subject.value;
      let properties = subjects.get(key);
      if (!properties) subjects.set(key, (properties = new Map()));
      const values = properties.get(q.predicate.value);
      if (!values) {
        properties.set(q.predicate.value, [q.object]);
        continue;
      }
      const statement = `${key}\u0000${q.predicate.value}\u0000${objectKey(q.object)}`;
      if (values.length === 1) seen.add(`${key}\u0000${q.predicate.value}\u0000${objectKey(values[0]!)}`);
      if (seen.has(statement)) continue;
      seen.add(statement);
      values.push(q.object);
    }
    const lowering = new Lowering(subjects, this.versions);
    const records: (LoweredRecord & { order: number })[] = [];
    for (const [subject, properties] of subjects) {
      if (properties.has(mld.inSession)) records.push(lowering.record(subject, properties));
    }
    records.sort((a, b) =>
      a.seq !== undefined && b.seq !== undefined
        ? a.seq - b.seq
        : a.session.localeCompare(b.session) || a.order - b.order,
    );
    return records;
  }
}

class Lowering {
  private readonly byClass = new Map<MessagePlans, Map<string, MessagePlan>>();

  constructor(
    private readonly subjects: Map<string, Properties>,
    private readonly versions: ProtocolSchemas,
  ) {}

  /** The plans of the version a message was lifted by, and its message plans by class. */
  private plansOf(properties: Properties): { plans: MessagePlans; byClass: Map<string, MessagePlan> } {
    const declared = this.one(properties, mld.schemaVersion)?.value;
    const plans =
      declared !== undefined && isProtocolVersion(declared)
        ? this.versions.of(declared).plans
        : this.versions.defaultTools.plans;
    let byClass = this.byClass.get(plans);
    if (byClass === undefined) {
      byClass = new Map();
      for (const message of plans.schema.messages) {
        const plan = plans.plan(message.name)!;
        if (!byClass.has(plan.class)) byClass.set(plan.class, plan);
      }
      this.byClass.set(plans, byClass);
    }
    return { plans, byClass };
  }

  private one(properties: Properties | undefined, predicate: string): Term | undefined {
    return properties?.get(predicate)?.[0];
  }

  record(iri: string, properties: Properties): LoweredRecord & { order: number } {
    const sessionIri = this.one(properties, mld.inSession)!.value;
    const session = this.one(this.subjects.get(sessionIri), mld.sessionId)?.value ?? sessionIri;
    const dir: Direction = this.one(properties, mld.direction)?.value === mld.serverToClient ? 's2c' : 'c2s';
    const seq = this.one(properties, mld.captureSeq);
    const text = this.one(properties, mld.timestampText);
    const timestamp = this.one(properties, mld.timestamp);
    const server = this.one(properties, mld.server);
    const serverName = server && this.one(this.subjects.get(server.value), mld.serverName);
    const mcpMethod = this.one(properties, mld.mcpMethodHeader);
    const mcpName = this.one(properties, mld.mcpNameHeader);
    // Keys in the corpus order: seq, ts, dir, server, session, http (the proxy's), msg.
    const record = {} as LoweredRecord & { order: number };
    if (seq) record.seq = Number(seq.value);
    if (text) record.ts = text.value;
    else if (timestamp) record.ts = new Date(timestamp.value).toISOString();
    record.dir = dir;
    if (serverName) record.server = serverName.value;
    record.session = session;
    if (mcpMethod || mcpName)
      record.http = {
        ...(mcpMethod ? { mcpMethod: mcpMethod.value } : {}),
        ...(mcpName ? { mcpName: mcpName.value } : {}),
      };
    const raw = this.one(properties, mld.rawText);
    const isRawLine = (properties.get(rdf.type) ?? []).some((t) => t.value === mld.RawLine);
    if (!isRawLine) (record as CaptureRecord).msg = this.message(properties);
    const rawBytes = isRawLine ? this.one(properties, mld.rawBytes) : undefined;
    if (raw) record.raw = raw.value;
    else if (rawBytes) Object.assign(record, { raw: rawBytes.value, encoding: 'base64' });
    Object.defineProperty(record, 'order', {
      value: Number(this.one(properties, mld.order)?.value ?? 0),
      enumerable: false,
    });
    return record;
  }

  private message(properties: Properties): JsonObject {
    const { plans, byClass } = this.plansOf(properties);
    const types = new Set((properties.get(rdf.type) ?? []).map((t) => t.value));
    const plan = [...types].map((t) => byClass.get(t)).find((p) => p !== undefined);
    const msg: JsonObject = {};
    const jsonrpc = this.one(properties, plans.jsonrpc.predicate);
    if (jsonrpc) msg['jsonrpc'] = this.value(jsonrpc, plans.jsonrpc.value);
    const id = this.one(properties, plans.idPredicate);
    if (id) msg['id'] = this.requestId(id.value);
    const method = this.one(properties, plans.method.predicate);
    if (method) msg['method'] = this.value(method, plans.method.value);
    const params = this.one(properties, plans.paramsPredicate);
    if (params) {
      const fallback = types.has(jrpc.Notification) ? plans.unknownNotification : plans.unknownRequest;
      msg['params'] = this.value(params, (plan?.params ?? fallback.params)?.value ?? anyPlan);
    }
    const result = this.one(properties, plans.resultPredicate);
    if (result)
      msg['result'] = this.value(result, { kind: 'node', node: (plan?.result ?? plans.genericResult.result)! });
    const error = this.one(properties, plans.error.predicate);
    if (error) msg['error'] = this.value(error, plans.error.value);
    for (const [predicate, values] of properties) {
      const key = extensionKey(predicate);
      if (key !== undefined) setMember(msg, key, this.value(values[0]!, anyPlan));
    }
    return msg;
  }

  private requestId(iri: string): JsonValue {
    const node = this.subjects.get(iri);
    const number = this.one(node, jrpc.hasNumberValue);
    if (number) return Number(number.value);
    const string = this.one(node, jrpc.hasStringValue);
    if (string && string.termType === 'Literal') return literalToJson(string.value, string.datatype.value);
    return null;
  }

  private value(term: Term, plan: ValuePlan): JsonValue {
    if (term.termType === 'Literal') return literalToJson(term.value, term.datatype.value);
    if (term.value === rdf.nil) return [];
    const properties = this.subjects.get(term.value);
    if (properties?.has(rdf.first)) return this.list(term.value, itemPlan(plan));
    return this.node(properties, plan.kind === 'node' ? plan.node : undefined);
  }

  private list(head: string, item: ValuePlan): JsonValue[] {
    const values: JsonValue[] = [];
    const seen = new Set<string>();
    for (let cell = head; cell !== rdf.nil && !seen.has(cell);) {
      seen.add(cell);
      const properties = this.subjects.get(cell);
      const first = this.one(properties, rdf.first);
      if (first) values.push(this.value(first, item));
      cell = this.one(properties, rdf.rest)?.value ?? rdf.nil;
    }
    return values;
  }

  private node(properties: Properties | undefined, plan: NodePlan | undefined): JsonObject {
    const object: JsonObject = {};
    for (const [predicate, values] of properties ?? []) {
      const property = plan?.byPredicate.get(predicate);
      const key = property?.key ?? extensionKey(predicate);
      if (key !== undefined) setMember(object, key, this.value(values[0]!, property?.value ?? anyPlan));
    }
    return object;
  }
}

const anyPlan: ValuePlan = { kind: 'any' };

/** What tells two objects of one subject and predicate apart (RDF term equality). */
function objectKey(term: Term): string {
  return term.termType === 'Literal'
    ? `"${term.value}"@${term.language}^^${term.datatype.value}`
    : `${term.termType}:${term.value}`;
}

/** Sets a member as JSON.parse does: an own property, `__proto__` too (an assignment would set the prototype). */
function setMember(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
