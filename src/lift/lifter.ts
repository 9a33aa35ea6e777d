// The fast lifting engine: a synchronous function from a session state and a record to quads, compiled from the
// schema (see plan.ts), with no per-message JSON-LD processing. Streams, the CLI and the API only feed it.
// Longer than 400 lines on purpose: lifting a message is one pass over one session's state (pending requests, progress,
// subscriptions, open rounds, the sink), and its steps are the private methods of one class that share it; what stands
// alone (plans, literals, entities, derived data, records, versions) has a module of its own.
import type { Quad } from 'n3';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import {
  chooseResult,
  seedVersion,
  versionFor,
  type Direction,
  type ProtocolVersion,
  type SchemaIndex,
} from '../schema/index.js';
import { annotatedLiteral, jsonLiteral, naturalLiteral, naturalNumber, type LiteralForm } from '../rdf/literals.js';
import { MessagePlans, type MessagePlan } from './message-plans.js';
import { classesFor, itemPlan, type NodePlan, type PropertyPlan, type ValuePlan } from './plan.js';
import {
  isRawLine,
  messageShape,
  type HttpFacts,
  type InputRecord,
  type MessageShape,
  type RawLineRecord,
} from './records.js';
import type { ValidationProblem } from './validate.js';
import {
  declaredVersion,
  negotiatedVersion,
  protocolVersionKey,
  ProtocolSchemas,
  type VersionTools,
} from './protocol-schemas.js';
import { isRetry, OpenRounds, retryTarget } from './multi-round.js';
import { createdTaskId, taskAt, taskIdOf, taskMethods, type TaskState } from './tasks.js';
import { entityListings, entityReferences, type EntityKind } from '../rdf/entities.js';
import {
  childIri,
  extensionKeyUseIri,
  extensionPredicate,
  IriMinter,
  jrpc,
  listCellIri,
  mld,
  ns,
  rdf,
  xsd,
} from '../rdf/vocabulary.js';
import { hasMembers, liftMembers, liftSchema, topParameters, type DerivedSink } from './derived.js';
import { NQuadsSink, NullSink, RdfJsSink, type ObjectValue, type QuadSink } from './sinks.js';
import { isAbsoluteIri } from '../core/iri.js';
import { implementationName, serverInfoKey, serverInfoOf } from './server-info.js';
import { McpLdError } from '../core/problem.js';
import { captureTime, isoDateTime } from './capture-time.js';

export interface LiftOptions {
  /** Base of the instance IRIs (default `urn:mcp-ld:`). */
  base?: string;
  /** Session of records that do not name one (plain messages); a function is called once, when first needed. */
  defaultSession?: string | (() => string);
  /** Validate every message against its definition (default true). */
  validate?: boolean;
  /**
   * Sessions whose state (order, pending requests) is kept; past that the least recently used is forgotten (a late
   * response of a forgotten session is then lifted by its shape). Default 10,000 (at least 1): a long-lived lifter
   * stays bounded.
   */
  maxSessions?: number;
}

/** What one lift() call emits: everything (`full`), or only the session layer, leaving the message body — what the
 * JSON-LD contexts describe — to another engine (`session-layer`, used by the reference engine). */
export type LiftMode = 'full' | 'session-layer';

/** What lifting one message gives besides its quads. */
export interface LiftedMeta {
  iri: string;
  session: string;
  /** The named graph its quads are in: its session's. */
  graph: string;
  order: number;
  direction: Direction;
  /** The MCP definition the message was lifted by (undefined: an error, or a method the schema does not know). */
  definition?: string;
  /** The protocol version whose schema the message was lifted by. */
  version: ProtocolVersion;
  /** The version the message declared, when the package does not know it (it was lifted by `version` instead). */
  unknownVersion?: string;
  /** The message's method (or, for a response, its request's method) is one the schema does not know. */
  unknownMethod: boolean;
  problems: ValidationProblem[];
  /** How the body was (or is to be) lifted: the context file that describes it and the plans used. */
  body: MessageBody;
  /** How many quads the message gave. */
  quadCount: number;
  /** A line that was not JSON (kept as text: mld:RawLine). */
  rawLine?: boolean;
}

export interface LiftedMessage extends LiftedMeta {
  quads: Quad[];
}

export interface LiftedText extends LiftedMeta {
  /** The message's quads as N-Quads text. */
  nquads: string;
}

export interface LiftedTextParts extends LiftedMeta {
  /** The message's quads as N-Quads text, in parts to be written one after the other (NQuadsSink.textParts). */
  nquadsParts: string[];
}

interface MessageBody {
  /** Context file, relative to contexts/, that describes this body (e.g. `messages/CallToolRequest.jsonld`). */
  context: string;
  params?: PropertyPlan;
  result?: NodePlan;
  error?: boolean;
  /** The IRI of the request id node, when the id is a JSON-RPC id. */
  idIri?: string;
}

interface PendingRequest {
  iri: string;
  method: string;
  /** The version it was lifted by: its response is lifted by the same. */
  version: ProtocolVersion;
  /** When it was captured (ms since the epoch), for the latency of its response. */
  time?: number;
  /** Its key in SessionState.progress, when it asked for progress notifications. */
  progressKey?: string;
  /** Its params, when its answer depends on them (multi-round requests, tasks/result). */
  params?: JsonValue;
  /** The multi-round operation it is a round of (2026-07-28), when known. */
  operation?: Operation;
}

/** A multi-round-trip request (2026-07-28): the node of the whole operation, and which attempt a request is. */
interface Operation {
  iri: string;
  /** 1 for the first request, one more for each retry. */
  round: number;
  /** When its first request was captured (ms since the epoch). */
  start?: number;
}

/** What the lifter remembers of one session between messages. */
class SessionState {
  order = 0;
  readonly pending = new Map<string, PendingRequest>();
  /** Requests in flight that asked for progress (`params._meta.progressToken`), by requester direction and token. */
  readonly progress = new Map<string, string>();
  /** Nodes whose describing triples are already in this session's graph (ids, entities, implementations). */
  readonly described = new Set<string>();
  serverKey: string | undefined;
  /** The version the session speaks: negotiated by initialize, or the last one a message declared. */
  version: ProtocolVersion | undefined;
  /** Multi-round requests waiting for their retry (2026-07-28). */
  readonly rounds = new OpenRounds();
  /** Open subscriptions/listen requests, by their id (2026-07-28). */
  readonly subscriptions = new Map<string, string>();
  /** The tasks its requests started, by task id (tasks.ts). */
  readonly tasks = new Map<string, TaskState>();

  constructor(
    readonly id: string,
    /** The session's node and the name of its graph. */
    readonly iri: string,
  ) {}
}

const errorClasses: Record<number, string> = {
  [-32700]: `${ns.jrpc}ParseError`,
  [-32600]: `${ns.jrpc}InvalidRequest`,
  [-32601]: `${ns.jrpc}MethodNotFound`,
  [-32602]: `${ns.jrpc}InvalidParams`,
  [-32603]: `${ns.jrpc}InternalError`,
};

function errorClass(code: JsonValue | undefined): string | undefined {
  if (typeof code !== 'number') return undefined;
  if (errorClasses[code]) return errorClasses[code];
  return code <= -32000 && code >= -32099 ? `${ns.jrpc}ServerError` : undefined;
}

const entityClass: Record<EntityKind, string> = { tool: mld.Tool, prompt: mld.Prompt, resource: mld.Resource };
const entityLink: Record<EntityKind, string> = { tool: mld.tool, prompt: mld.prompt, resource: mld.resource };

export class Lifter {
  /** The default version's plans (the version of messages that say nothing of theirs). */
  readonly plans: MessagePlans;
  readonly minter: IriMinter;
  private readonly versions: ProtocolSchemas;
  /** The schema, plans and validator of the message being lifted. */
  private active: VersionTools;
  private readonly sessions = new Map<string, SessionState>();
  /** The session of the message lifted last (the most recently used). */
  private lastSession: SessionState | undefined;
  private defaultSession: string | (() => string);
  private readonly maxSessions: number;
  /** Where the derived data of schemas, structured content and arguments goes: the session layer. */
  private readonly derived: DerivedSink = {
    node: (subject, predicate, object) => this.sink.add(subject, predicate, object),
    literal: (subject, predicate, form) => this.sink.add(subject, predicate, form),
  };
  // Per lift: where the session layer's quads go, and where the body's go (the same sink, or nowhere).
  private sink: QuadSink = new NullSink();
  private bodySink: QuadSink = this.sink;
  /**
   * The extension predicates the message being lifted uses (keys the schema does not know), in order of first use:
   * the key and how many times it occurs in the message.
   */
  private readonly extensionKeys = new Map<string, { key: string; occurrences: number }>();
  private readonly rdfJs = new RdfJsSink();
  private readonly text = new NQuadsSink();
  private readonly discard = new NullSink();

  /**
   * `versions`, the plans and validators of each version made once, may be shared by the lifters of one thread (POST
   * /convert makes a lifter per request); it must have been made for `schema` and `options.validate`.
   */
  constructor(
    readonly schema: SchemaIndex,
    options: LiftOptions = {},
    versions?: ProtocolSchemas,
  ) {
    this.versions = versions ?? new ProtocolSchemas(schema, undefined, options.validate !== false);
    this.active = this.versions.defaultTools;
    this.plans = this.active.plans;
    this.minter = new IriMinter(options.base);
    this.defaultSession = options.defaultSession ?? 'default';
    this.maxSessions = Math.max(1, options.maxSessions ?? 10_000);
    // Minted IRIs are made of encoded segments; what is not minted here is checked once, so sinks need not escape.
    if (!isAbsoluteIri(this.minter.base)) {
      throw McpLdError.of('lift.bad-base', {
        detail: `"${this.minter.base}" is not an absolute IRI that N-Quads can carry`,
      });
    }
  }

  /** Lifts one record to RDF-JS quads. Throws McpLdError (input.not-mcp) when the record is not a JSON-RPC message. */
  lift(record: InputRecord, mode: LiftMode = 'full'): LiftedMessage {
    const lifted = this.run(record, mode, this.rdfJs) as LiftedMessage;
    lifted.quads = this.rdfJs.quads;
    return lifted;
  }

  /** Lifts one record straight to N-Quads text (no term objects): the fast path of conversion and ingestion. */
  liftToNQuads(record: InputRecord): LiftedText {
    const lifted = this.run(record, 'full', this.text) as LiftedText;
    lifted.nquads = this.text.text();
    return lifted;
  }

  /** liftToNQuads for a writer that copies text out part by part (mcp-ld convert): no part is a large string. */
  liftToNQuadsParts(record: InputRecord): LiftedTextParts {
    const lifted = this.run(record, 'full', this.text) as LiftedTextParts;
    lifted.nquadsParts = this.text.textParts();
    return lifted;
  }

  /** The schema, plans and validator of the version the message speaks (see protocol-schemas.ts). */
  private get schemaOf(): SchemaIndex {
    return this.active.schema;
  }

  private use(version: ProtocolVersion): void {
    if (this.active.version !== version) this.active = this.versions.of(version);
  }

  private run(record: InputRecord, mode: LiftMode, sink: QuadSink): LiftedMeta {
    this.sink = sink;
    this.bodySink = mode === 'full' ? sink : this.discard;
    this.extensionKeys.clear();
    if (isRawLine(record)) return this.liftRawLine(record, sink);
    const { msg } = record;
    const shape = messageShape(msg);
    // The capture time, parsed once (records.ts has checked it parses): timestamp, and latency of a response.
    const time = record.ts === undefined ? undefined : captureTime(record.ts);
    const session = this.session(record.session ?? this.sessionForPlainMessages());
    const order = ++session.order;
    // A captured message is named by its capture seq, so ingesting the same capture again gives the same quads
    // (a no-op for a store); plain messages by their order in this session.
    const position = record.seq ?? order;
    const iri = this.minter.message(session.id, position);

    if (record.server !== undefined) {
      if (session.serverKey === undefined) this.setServer(session, record.server);
      this.emit(iri, mld.server, this.minter.server(record.server));
    }

    let direction: Direction;
    let plan: MessagePlan | undefined;
    let problems: ValidationProblem[] = [];
    const body: MessageBody = { context: '' };
    let answeredMethod: string | undefined;
    const method = typeof msg['method'] === 'string' ? msg['method'] : undefined;
    let unknownVersion: string | undefined;
    let answered: ReturnType<Lifter['answeredRequest']>;

    if (shape === 'request' || shape === 'notification') {
      // The version it declares (2026-07-28's _meta, or initialize's request), else the session's, else the default.
      const declared = declaredVersion(method, msg['params']);
      const version = declared === undefined ? undefined : versionFor(declared);
      if (version !== undefined && version !== declared) unknownVersion = declared;
      if (version !== undefined && method !== 'initialize') session.version = version;
      this.use(version ?? session.version ?? this.versions.defaultTools.version);
      direction = record.dir ?? this.schemaOf.defaultDirection(method!);
      const known = this.schemaOf.messageForMethod(method!);
      plan =
        known && (known.kind === 'request') === (shape === 'request') ? this.active.plans.plan(known.name) : undefined;
      this.emit(iri, rdf.type, shape === 'request' ? jrpc.Request : jrpc.Notification);
      this.emit(iri, rdf.type, plan ? plan.class : mld.UnknownMessage);
      if (shape === 'request') {
        const idIri = this.liftId(session, iri, direction, msg['id']);
        if (idIri) {
          const pending = this.pendingRequest(session, iri, method!, direction, time, msg['params']);
          session.pending.set(idIri, pending);
          body.idIri = idIri;
          if (isRetry(msg['params'])) this.linkRetry(session, iri, pending, msg['params']);
          if (method === 'subscriptions/listen') this.openSubscription(session, iri, msg['id']!);
        }
      } else {
        this.linkNotification(session, iri, method!, direction, msg['params']);
      }
      if (taskMethods.has(method!)) this.linkTask(session, iri, method!, msg['params'], position);
      if (plan?.definition === 'TaskStatusNotification')
        this.followTask(session, childIri(iri, 'params'), msg['params'], position);
      this.describeFromMeta(session, iri, 'params', msg['params']);
      this.liftProperty(iri, this.active.plans.method, 'method', msg['method']!);
      const bodyPlan =
        plan ?? (shape === 'request' ? this.active.plans.unknownRequest : this.active.plans.unknownNotification);
      body.context = this.contextFile(`messages/${bodyPlan.definition}.jsonld`);
      if (bodyPlan.params) body.params = bodyPlan.params;
      if ('params' in msg) this.liftProperty(iri, bodyPlan.params, 'params', msg['params']!);
      const validator = this.active.validator;
      if (validator) {
        problems = plan
          ? validator.validateMessage(plan.definition, msg)
          : validator.validateEnvelope(shape === 'request' ? 'Request' : 'Notification', msg);
      }
      if (plan) this.linkEntities(session, iri, plan.definition, msg);
      if (method === 'initialize' && isJsonObject(msg['params'])) this.describeClient(session, iri, msg['params']);
    } else {
      answered = this.answeredRequest(session, record.dir, msg['id']);
      answeredMethod = answered?.request.method;
      // Lifted by the version its request was; an initialize result settles the session's version.
      this.use(answered?.request.version ?? session.version ?? this.versions.defaultTools.version);
      direction = record.dir ?? (answered ? answered.direction : 's2c');
      this.emit(iri, rdf.type, shape === 'error' ? jrpc.ErrorResponse : jrpc.Response);
      const idIri = this.liftId(session, iri, direction === 'c2s' ? 's2c' : 'c2s', msg['id']);
      if (idIri) body.idIri = idIri;
      if (answered) {
        this.emit(iri, mld.respondsTo, answered.request.iri);
        this.emitLiteral(iri, mld.answersMethod, { value: answered.request.method, datatype: xsd.string });
        this.emitLatency(iri, answered.request, time);
        if (idIri) session.pending.delete(idIri);
        if (answered.request.progressKey) session.progress.delete(answered.request.progressKey);
      }
      if (shape === 'response') {
        plan = this.resultPlan(this.answeredLike(session, answered?.request), msg['result']);
        body.context = this.contextFile(`messages/${plan.definition}.jsonld`);
        body.result = plan.result!;
        this.emit(iri, rdf.type, plan.class);
        this.liftProperty(
          iri,
          { key: 'result', predicate: this.active.plans.resultPredicate, value: { kind: 'node', node: plan.result! } },
          'result',
          msg['result']!,
        );
        if (this.active.validator) problems = this.active.validator.validateResult(plan.definition, msg);
        this.linkEntities(session, iri, plan.definition, msg);
        if (answered?.request.method === 'initialize' && isJsonObject(msg['result'])) {
          this.describeServer(session, iri, msg['result']);
          const negotiated = negotiatedVersion(msg['result']);
          if (negotiated !== undefined) session.version = versionFor(negotiated) ?? session.version;
        }
        this.describeFromMeta(session, iri, 'result', msg['result']);
        if (
          answered?.request.method === 'server/discover' &&
          isJsonObject(msg['result']) &&
          isJsonObject(msg['result']['capabilities'])
        ) {
          this.describeOnce(session, `serverCapabilities`, () =>
            this.emit(session.iri, mld.serverCapabilities, childIri(childIri(iri, 'result'), 'capabilities')),
          );
        }
        if (answered) {
          this.followRounds(session, iri, answered.request, plan.definition, msg['result'], time);
          if (plan.definition === 'CreateTaskResult')
            this.rememberTask(session, answered.request, msg['result'], position);
          if (plan.definition === 'GetTaskResult')
            this.followTask(session, childIri(iri, 'result'), msg['result'], position);
        }
      } else {
        body.context = this.contextFile('json-rpc.jsonld');
        body.error = true;
        this.liftProperty(iri, this.active.plans.error, 'error', msg['error']!);
        const code = isJsonObject(msg['error']) ? errorClass(msg['error']['code']) : undefined;
        this.emit(childIri(iri, 'error'), rdf.type, jrpc.Error);
        if (code) this.emit(childIri(iri, 'error'), rdf.type, code);
        if (this.active.validator) problems = this.active.validator.validateEnvelope('Response', msg);
        if (answered?.request.operation) this.closeOperation(iri, answered.request.operation, 'error', time);
      }
    }
    if ('jsonrpc' in msg) this.liftProperty(iri, this.active.plans.jsonrpc, 'jsonrpc', msg['jsonrpc']!);
    // Every other key, an envelope key its shape does not use too (`error` beside `result`): an extension key.
    const byEnvelope = liftedEnvelopeKeys[shape];
    for (const key of Object.keys(msg)) {
      if (key !== 'jsonrpc' && !byEnvelope.has(key)) this.liftProperty(iri, undefined, key, msg[key]!);
    }

    // Which keys the schema does not know a message uses, and how many times each, on the message itself: a query
    // finds and counts them without walking the message's JSON tree.
    for (const [predicate, use] of this.extensionKeys)
      this.liftExtensionKeyUse(iri, predicate, use.key, use.occurrences);
    // A record without a server name (a tap without --server) is the server's that the session's serverInfo names.
    if (record.server === undefined && session.serverKey !== undefined)
      this.emit(iri, mld.server, this.minter.server(session.serverKey));
    this.emit(iri, mld.inSession, session.iri);
    this.emit(iri, mld.direction, direction === 'c2s' ? mld.clientToServer : mld.serverToClient);
    this.emitLiteral(iri, mld.order, { value: String(position), datatype: xsd.integer });
    this.emitLiteral(iri, mld.schemaVersion, { value: this.active.version, datatype: xsd.string });
    if (unknownVersion !== undefined)
      this.emitLiteral(iri, mld.declaredVersion, { value: unknownVersion, datatype: xsd.string });
    if (record.seq !== undefined)
      this.emitLiteral(iri, mld.captureSeq, { value: String(record.seq), datatype: xsd.integer });
    if (record.ts !== undefined) this.liftTimestamp(iri, record.ts, time!);
    this.liftHttp(iri, record.http);
    if (record.raw !== undefined) this.emitLiteral(iri, mld.rawText, { value: record.raw, datatype: xsd.string });
    problems.forEach((problem, i) => this.liftProblem(iri, i, problem));

    const unknownMethod =
      method !== undefined
        ? !this.schemaOf.messageForMethod(method)
        : answeredMethod !== undefined && !this.schemaOf.messageForMethod(answeredMethod);
    const lifted: LiftedMeta = {
      iri,
      session: session.id,
      graph: session.iri,
      order,
      direction,
      version: this.active.version,
      problems,
      body,
      unknownMethod,
      quadCount: sink.count,
    };
    if (unknownVersion !== undefined) lifted.unknownVersion = unknownVersion;
    if (plan && plan !== this.active.plans.genericResult) lifted.definition = plan.definition;
    return lifted;
  }

  /** A line that was not JSON: a node of its session with its text, direction, time and place among the messages. */
  private liftRawLine(record: RawLineRecord, sink: QuadSink): LiftedMeta {
    const session = this.session(record.session ?? this.sessionForPlainMessages());
    const order = ++session.order;
    const iri = this.minter.message(session.id, record.seq ?? order);
    const direction: Direction = record.dir ?? 's2c';
    if (record.server !== undefined) {
      if (session.serverKey === undefined) this.setServer(session, record.server);
      this.emit(iri, mld.server, this.minter.server(record.server));
    }
    this.emit(iri, rdf.type, mld.RawLine);
    if (record.encoding === 'base64')
      this.emitLiteral(iri, mld.rawBytes, { value: record.raw, datatype: xsd.base64Binary });
    else this.emitLiteral(iri, mld.rawText, { value: record.raw, datatype: xsd.string });
    this.emit(iri, mld.inSession, session.iri);
    if (record.dir !== undefined)
      this.emit(iri, mld.direction, direction === 'c2s' ? mld.clientToServer : mld.serverToClient);
    this.emitLiteral(iri, mld.order, { value: String(record.seq ?? order), datatype: xsd.integer });
    if (record.seq !== undefined)
      this.emitLiteral(iri, mld.captureSeq, { value: String(record.seq), datatype: xsd.integer });
    if (record.ts !== undefined) this.liftTimestamp(iri, record.ts, captureTime(record.ts));
    this.liftHttp(iri, record.http);
    return {
      iri,
      session: session.id,
      graph: session.iri,
      order,
      direction,
      version: this.active.version,
      problems: [],
      body: { context: '' },
      unknownMethod: false,
      rawLine: true,
      quadCount: sink.count,
    };
  }

  /** The Mcp-Method and Mcp-Name headers of the HTTP request that carried the message (a record's `http`), as sent. */
  private liftHttp(iri: string, http: HttpFacts | undefined): void {
    if (http?.mcpMethod !== undefined)
      this.emitLiteral(iri, mld.mcpMethodHeader, { value: http.mcpMethod, datatype: xsd.string });
    if (http?.mcpName !== undefined)
      this.emitLiteral(iri, mld.mcpNameHeader, { value: http.mcpName, datatype: xsd.string });
  }

  // ---- sessions, servers, implementations ------------------------------------------------------------------

  private sessionForPlainMessages(): string {
    if (typeof this.defaultSession === 'function') this.defaultSession = this.defaultSession();
    return this.defaultSession;
  }

  /** The state of session `id`, and the sink started on its graph (a new session describes itself first). */
  private session(id: string): SessionState {
    // Consecutive messages mostly share a session, which is then the most recently used already.
    if (this.lastSession?.id === id) {
      this.sink.begin(this.lastSession.iri);
      return this.lastSession;
    }
    let state = this.sessions.get(id);
    const isNew = !state;
    if (state) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to forget.
      this.sessions.delete(id);
      this.sessions.set(id, state);
    } else {
      state = new SessionState(id, this.minter.session(id));
      this.sessions.set(id, state);
      if (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    }
    this.lastSession = state;
    this.sink.begin(state.iri);
    if (isNew) {
      this.emit(state.iri, rdf.type, mld.Session);
      this.emitLiteral(state.iri, mld.sessionId, { value: id, datatype: xsd.string });
    }
    return state;
  }

  private setServer(session: SessionState, key: string): void {
    session.serverKey = key;
    this.emit(session.iri, mld.server, this.serverNode(session, key));
  }

  /** The server node of `key`, described once per session graph; `unknown` (no name seen yet) has no name. */
  private serverNode(session: SessionState, key: string): string {
    const server = this.minter.server(key);
    this.describeOnce(session, server, () => {
      this.emit(server, rdf.type, mld.Server);
      if (session.serverKey === key) this.emitLiteral(server, mld.serverName, { value: key, datatype: xsd.string });
    });
    return server;
  }

  private implementation(session: SessionState, info: JsonValue | undefined): string | undefined {
    const name = implementationName(info);
    if (name === undefined) return undefined;
    const version =
      typeof (info as JsonObject)['version'] === 'string' ? ((info as JsonObject)['version'] as string) : undefined;
    const iri = this.minter.implementation(name, version);
    this.describeOnce(session, iri, () => {
      this.emit(iri, rdf.type, `${ns.mcp}Implementation`);
      this.emitLiteral(iri, `${ns.mcp}hasName`, { value: name, datatype: xsd.string });
      if (version !== undefined) this.emitLiteral(iri, `${ns.mcp}hasVersion`, { value: version, datatype: xsd.string });
    });
    return iri;
  }

  private describeClient(session: SessionState, iri: string, params: JsonObject): void {
    const client = this.implementation(session, params['clientInfo']);
    if (client) this.emit(session.iri, mld.client, client);
    if (isJsonObject(params['capabilities']))
      this.emit(session.iri, mld.clientCapabilities, childIri(childIri(iri, 'params'), 'capabilities'));
    if (typeof params['protocolVersion'] === 'string')
      this.emitLiteral(session.iri, mld.requestedProtocolVersion, {
        value: params['protocolVersion'],
        datatype: xsd.string,
      });
  }

  private describeServer(session: SessionState, iri: string, result: JsonObject): void {
    const info = serverInfoOf(result, 'serverInfo');
    const server = this.implementation(session, info);
    if (server) this.emit(session.iri, mld.serverImplementation, server);
    this.nameServer(session, info);
    if (isJsonObject(result['capabilities']))
      this.emit(session.iri, mld.serverCapabilities, childIri(childIri(iri, 'result'), 'capabilities'));
    if (typeof result['protocolVersion'] === 'string')
      this.emitLiteral(session.iri, mld.protocolVersion, { value: result['protocolVersion'], datatype: xsd.string });
  }

  /** A session whose server has no name yet takes the one its serverInfo gives. */
  private nameServer(session: SessionState, info: JsonValue | undefined): void {
    const name = implementationName(info);
    if (session.serverKey === undefined && name !== undefined) this.setServer(session, name);
  }

  private describeOnce(session: SessionState, iri: string, describe: () => void): void {
    if (session.described.has(iri)) return;
    session.described.add(iri);
    describe();
  }

  /**
   * 2026-07-28 has no initialize: a request's `_meta` names the client (its implementation, capabilities and
   * protocol version) and a result's the server. Each is linked to the session once, as initialize's are. A W3C
   * `traceparent` in any `_meta` gives the message its OpenTelemetry trace and span ids.
   */
  private describeFromMeta(
    session: SessionState,
    iri: string,
    key: 'params' | 'result',
    body: JsonValue | undefined,
  ): void {
    const meta = isJsonObject(body) ? body['_meta'] : undefined;
    if (!isJsonObject(meta)) return;
    const metaIri = childIri(childIri(iri, key), '_meta');
    const client = this.implementation(session, meta[clientInfoKey]);
    if (client) this.describeOnce(session, `client ${client}`, () => this.emit(session.iri, mld.client, client));
    if (isJsonObject(meta[clientCapabilitiesKey]))
      this.describeOnce(session, 'clientCapabilities', () =>
        this.emit(session.iri, mld.clientCapabilities, childIri(metaIri, clientCapabilitiesKey)),
      );
    const version = meta[protocolVersionKey];
    if (typeof version === 'string')
      this.describeOnce(session, `protocolVersion ${version}`, () =>
        this.emitLiteral(session.iri, mld.protocolVersion, { value: version, datatype: xsd.string }),
      );
    const info = meta[serverInfoKey];
    const server = this.implementation(session, info);
    if (server) {
      this.describeOnce(session, `server ${server}`, () => this.emit(session.iri, mld.serverImplementation, server));
      this.nameServer(session, info);
    }
    const subscription = meta[subscriptionIdKey];
    const listen = subscription === undefined ? undefined : session.subscriptions.get(idKey(subscription));
    if (listen) this.emit(iri, mld.subscription, listen);
    const trace = typeof meta['traceparent'] === 'string' ? traceparent.exec(meta['traceparent']) : null;
    if (trace) {
      this.emitLiteral(iri, mld.traceId, { value: trace[1]!, datatype: xsd.string });
      this.emitLiteral(iri, mld.spanId, { value: trace[2]!, datatype: xsd.string });
    }
  }

  /** A subscriptions/listen request is the subscription its notifications name by its id. */
  private openSubscription(session: SessionState, iri: string, id: JsonValue): void {
    session.subscriptions.set(idKey(id), iri);
    this.emit(iri, rdf.type, mld.Subscription);
  }

  // ---- multi-round-trip requests (2026-07-28) --------------------------------------------------------------

  /**
   * A retry: the request that answers an InputRequiredResult with `inputResponses` (and its `requestState`). It is
   * the next round of the same operation, and each of its input responses answers the input request of its key.
   */
  private linkRetry(session: SessionState, iri: string, pending: PendingRequest, params: JsonObject): void {
    const round = session.rounds.take(pending.method, params);
    if (round === undefined) return;
    pending.operation = {
      iri: round.operation,
      round: round.round + 1,
      ...(round.start !== undefined ? { start: round.start } : {}),
    };
    this.emit(iri, mld.answersInputRequired, round.result);
    this.emit(iri, mld.operation, round.operation);
    this.emitLiteral(iri, mld.attempt, { value: String(pending.operation.round), datatype: xsd.integer });
    const responses = params['inputResponses'];
    if (isJsonObject(responses))
      this.liftInputResponses(childIri(iri, 'params'), responses, childIri(round.result, 'result'), round.methods);
  }

  /**
   * The input requests a server asks for (an InputRequiredResult's, an input_required task's) below `holder`: each
   * embedded request (elicitation/create, sampling/createMessage, roots/list) lifted by its own definition. Gives
   * each key's method.
   */
  private liftInputRequests(holder: string, asked: JsonObject): Record<string, string> {
    const methods: Record<string, string> = {};
    for (const [key, value] of Object.entries(asked)) {
      const node = this.inputEntry(holder, 'inputRequests', key, mld.inputRequest, mld.InputRequest);
      if (!isJsonObject(value)) continue;
      const method = typeof value['method'] === 'string' ? value['method'] : undefined;
      const definition = method === undefined ? undefined : this.active.schema.definitionForMethod(method);
      if (method !== undefined) methods[key] = method;
      const plan = definition === undefined ? undefined : this.definitionPlan(definition);
      this.inSessionLayer(() => this.liftNode(node, plan, value));
    }
    return methods;
  }

  /**
   * The client's answers below `holder` to the input requests below `requests` (whose methods `methods` gives): each
   * linked to the request of its key and lifted by the result definition of that request's method.
   */
  private liftInputResponses(
    holder: string,
    responses: JsonObject,
    requests: string,
    methods: Record<string, string>,
  ): void {
    for (const [key, value] of Object.entries(responses)) {
      const node = this.inputEntry(holder, 'inputResponses', key, mld.inputResponse, mld.InputResponse);
      if (key in methods) this.emit(node, mld.respondsToInput, childIri(childIri(requests, 'inputRequests'), key));
      const method = methods[key];
      const request = method === undefined ? undefined : this.active.schema.definitionForMethod(method);
      const plan = request === undefined ? undefined : this.definitionPlan(request.replace(/Request$/, 'Result'));
      if (isJsonObject(value)) this.inSessionLayer(() => this.liftNode(node, plan, value));
    }
  }

  // ---- tasks (tasks.ts) -------------------------------------------------------------------------------------

  /**
   * A message about a task (its params name it): linked to the request the task runs; tasks/update answers its input.
   */
  private linkTask(
    session: SessionState,
    iri: string,
    method: string,
    params: JsonValue | undefined,
    position: number,
  ): void {
    const task = taskAt(session.tasks, taskIdOf(params), position);
    if (task === undefined) return;
    this.emit(iri, mld.taskRequest, task.request);
    const responses = isJsonObject(params) ? params['inputResponses'] : undefined;
    if (method === 'tasks/update' && isJsonObject(responses) && task.inputs)
      this.liftInputResponses(childIri(iri, 'params'), responses, task.inputs.holder, task.inputs.methods);
  }

  /**
   * A task's whole state below `holder` (a tasks/get result, a notifications/tasks's params): the input requests it
   * waits on, lifted as an InputRequiredResult's are, and a completed task's `result`, also lifted (as data beside
   * the literal the body keeps) by the result definition of the request the task runs.
   */
  private followTask(session: SessionState, holder: string, state: JsonValue | undefined, position: number): void {
    const task = taskAt(session.tasks, taskIdOf(state), position);
    if (task === undefined || !isJsonObject(state)) return;
    const asked = state['inputRequests'];
    if (state['status'] === 'input_required' && isJsonObject(asked))
      task.inputs = { holder, methods: this.liftInputRequests(holder, asked) };
    const result = state['result'];
    const definition = this.active.schema.resultForMethod(task.method)?.name;
    if (state['status'] === 'completed' && isJsonObject(result) && definition !== undefined) {
      const node = childIri(holder, 'result');
      this.inSessionLayer(() => {
        this.emit(holder, mld.taskResult, node);
        this.liftNode(node, this.definitionPlan(definition), result);
      });
    }
  }

  /** One entry of `inputRequests` or `inputResponses` below `holder`: its node, linked, typed and keyed. */
  private inputEntry(
    holder: string,
    map: 'inputRequests' | 'inputResponses',
    key: string,
    link: string,
    type: string,
  ): string {
    const node = childIri(childIri(holder, map), key);
    this.emit(holder, link, node);
    this.emit(node, rdf.type, type);
    this.emitLiteral(node, mld.inputKey, { value: key, datatype: xsd.string });
    return node;
  }

  /** After a response to `request`: an InputRequiredResult opens a round; any other answer ends the operation. */
  private followRounds(
    session: SessionState,
    iri: string,
    request: PendingRequest,
    definition: string,
    result: JsonValue | undefined,
    time: number | undefined,
  ): void {
    if (definition !== inputRequiredResult) {
      if (request.operation)
        this.closeOperation(
          iri,
          request.operation,
          isJsonObject(result) && result['isError'] === true ? 'tool-error' : 'complete',
          time,
        );
      return;
    }
    let operation = request.operation;
    if (operation === undefined) {
      operation = {
        iri: childIri(request.iri, 'operation'),
        round: 1,
        ...(request.time !== undefined ? { start: request.time } : {}),
      };
      request.operation = operation;
      this.emit(operation.iri, rdf.type, mld.Operation);
      this.emit(request.iri, mld.operation, operation.iri);
      this.emitLiteral(request.iri, mld.attempt, { value: '1', datatype: xsd.integer });
    }
    this.emit(iri, mld.operation, operation.iri);
    const asked = isJsonObject(result) && isJsonObject(result['inputRequests']) ? result['inputRequests'] : {};
    const methods = this.liftInputRequests(childIri(iri, 'result'), asked);
    const state =
      isJsonObject(result) && typeof result['requestState'] === 'string' ? result['requestState'] : undefined;
    session.rounds.add({
      result: iri,
      operation: operation.iri,
      round: operation.round,
      target: retryTarget(request.method, request.params),
      keys: Object.keys(asked),
      methods,
      ...(state !== undefined ? { requestState: state } : {}),
      ...(operation.start !== undefined ? { start: operation.start } : {}),
    });
  }

  /**
   * The end of an operation: how many attempts and input rounds it took, how it ended, how long from its first request.
   */
  private closeOperation(
    iri: string,
    operation: Operation,
    outcome: 'complete' | 'tool-error' | 'error',
    time: number | undefined,
  ): void {
    this.emit(iri, mld.operation, operation.iri);
    this.emit(operation.iri, mld.finalResponse, iri);
    this.emitLiteral(operation.iri, mld.attempts, { value: String(operation.round), datatype: xsd.integer });
    this.emitLiteral(operation.iri, mld.rounds, { value: String(operation.round - 1), datatype: xsd.integer });
    this.emitLiteral(operation.iri, mld.outcome, { value: outcome, datatype: xsd.string });
    if (operation.start !== undefined && time !== undefined)
      this.emitLiteral(operation.iri, mld.totalLatencyMs, {
        value: String(time - operation.start),
        datatype: xsd.decimal,
      });
  }

  /** The node plan of a whole definition (with its class), for objects that are not messages of their own. */
  private definitionPlan(name: string): NodePlan | undefined {
    const { schema, plans } = this.active;
    if (!schema.definitionNames.includes(name)) return undefined;
    const plan = plans.compiler.nodePlan(schema.definition(name));
    const definitionClass = plans.compiler.classOf(name);
    return plan.classes.includes(definitionClass) ? plan : { ...plan, classes: [definitionClass, ...plan.classes] };
  }

  /**
   * Lifts derived nodes (not part of the message body, so lowering skips them) with the body's plans, in the session
   * layer.
   */
  private inSessionLayer(lift: () => void): void {
    const body = this.bodySink;
    this.bodySink = this.sink;
    try {
      lift();
    } finally {
      this.bodySink = body;
    }
  }

  /**
   * The request a response is read as the answer to: tasks/result (2025-11-25) answers like the request that
   * started the task (its params' taskId), and remembers the task a CreateTaskResult starts.
   */
  private answeredLike(session: SessionState, request: PendingRequest | undefined): string | undefined {
    if (request?.method !== 'tasks/result' || !isJsonObject(request.params)) return request?.method;
    const taskId = request.params['taskId'];
    return (typeof taskId === 'string' ? session.tasks.get(taskId)?.method : undefined) ?? request.method;
  }

  private rememberTask(
    session: SessionState,
    request: PendingRequest,
    result: JsonValue | undefined,
    position: number,
  ): void {
    const taskId = createdTaskId(result);
    if (taskId !== undefined)
      session.tasks.set(taskId, { method: request.method, request: request.iri, createdAt: position });
  }

  // ---- ids and request/response matching ------------------------------------------------------------------

  /** Lifts `id` as a node scoped by session, request direction and JSON type; returns its IRI. */
  private liftId(
    session: SessionState,
    message: string,
    requestDirection: Direction,
    id: JsonValue | undefined,
  ): string | undefined {
    if (id === undefined) return undefined;
    if (id !== null && typeof id !== 'string' && typeof id !== 'number') {
      this.liftProperty(message, undefined, 'id', id); // not a JSON-RPC id: kept losslessly, and invalid
      return undefined;
    }
    const iri = this.minter.requestId(session.id, requestDirection, id);
    this.bodySink.add(message, this.active.plans.idPredicate, iri);
    this.describeOnce(session, iri, () => {
      if (id === null) this.emit(iri, rdf.type, jrpc.NullId);
      else if (typeof id === 'number') {
        this.emit(iri, rdf.type, jrpc.NumberId);
        this.emitLiteral(iri, jrpc.hasNumberValue, naturalNumber(id));
      } else {
        this.emit(iri, rdf.type, jrpc.StringId);
        // An id with a lone surrogate (valid JSON) is no RDF string: kept exactly as rdf:JSON, as other values are.
        this.emitLiteral(iri, jrpc.hasStringValue, naturalLiteral(id));
      }
    });
    return iri;
  }

  // ---- links between messages: response to request (with its latency), cancellation and progress to request --

  /** A request awaiting its response; one that asks for progress is findable by its token until it is answered. */
  private pendingRequest(
    session: SessionState,
    iri: string,
    method: string,
    direction: Direction,
    time: number | undefined,
    params: JsonValue | undefined,
  ): PendingRequest {
    const pending: PendingRequest = { iri, method, version: this.active.version };
    if (time !== undefined) pending.time = time;
    if (isRetry(params) || method === 'tasks/result' || keepsParams.has(method)) pending.params = params;
    const meta = isJsonObject(params) ? params['_meta'] : undefined;
    const token = isJsonObject(meta) ? meta['progressToken'] : undefined;
    if (typeof token === 'string' || typeof token === 'number') {
      pending.progressKey = progressKey(direction, token);
      session.progress.set(pending.progressKey, iri);
    }
    return pending;
  }

  /** Links a cancellation to the request it cancels, and a progress notification to the request it reports on. */
  private linkNotification(
    session: SessionState,
    iri: string,
    method: string,
    direction: Direction,
    params: JsonValue | undefined,
  ): void {
    if (!isJsonObject(params)) return;
    if (method === 'notifications/cancelled') {
      // Sent by whoever sent the request, so in the request's direction.
      const id = params['requestId'];
      const request =
        typeof id === 'string' || typeof id === 'number'
          ? session.pending.get(this.minter.requestId(session.id, direction, id))
          : undefined;
      if (request) this.emit(iri, mld.cancels, request.iri);
    } else if (method === 'notifications/progress') {
      // Sent by whoever received the request.
      const token = params['progressToken'];
      const request =
        typeof token === 'string' || typeof token === 'number'
          ? session.progress.get(progressKey(direction === 'c2s' ? 's2c' : 'c2s', token))
          : undefined;
      if (request) this.emit(iri, mld.progressOf, request);
    }
  }

  /** Milliseconds from a request's capture to its response's, when both were captured with a time. */
  private emitLatency(iri: string, request: PendingRequest, time: number | undefined): void {
    if (request.time === undefined || time === undefined) return;
    this.emitLiteral(iri, mld.latencyMs, { value: String(time - request.time), datatype: xsd.decimal });
  }

  /** The pending request a response answers: same id, opposite direction (either, when the record has none). */
  private answeredRequest(session: SessionState, dir: Direction | undefined, id: JsonValue | undefined) {
    if (id === undefined || (id !== null && typeof id !== 'string' && typeof id !== 'number')) return undefined;
    const candidates: Direction[] = dir === 'c2s' ? ['s2c'] : dir === 's2c' ? ['c2s'] : ['c2s', 's2c'];
    for (const requestDirection of candidates) {
      const request = session.pending.get(this.minter.requestId(session.id, requestDirection, id));
      if (request) return { request, direction: (requestDirection === 'c2s' ? 's2c' : 'c2s') as Direction };
    }
    return undefined;
  }

  /** The result definition of a response: by the request it answers, else the one its shape alone fits. */
  private resultPlan(method: string | undefined, result: JsonValue | undefined): MessagePlan {
    const { schema, plans, validator } = this.active;
    const request = method === undefined ? undefined : schema.messageForMethod(method);
    const alternative =
      request === undefined ? undefined : chooseResult(schema.versionFacts.resultAlternatives[request.name], result);
    if (alternative !== undefined) return plans.plan(alternative)!;
    const known = method === undefined ? undefined : schema.resultForMethod(method);
    if (known) return plans.plan(known.name)!;
    // An answer to no known request: the results the specification marks (`resultType`) say what they are.
    const marked =
      method === undefined
        ? chooseResult([...new Set(Object.values(schema.versionFacts.resultAlternatives).flat())], result)
        : undefined;
    if (marked !== undefined) return plans.plan(marked)!;
    if (method === undefined && validator && isJsonObject(result)) {
      const fitting = schema.messages.filter(
        (m) => m.kind === 'result' && m.name !== 'EmptyResult' && validator.fitsResult(m.name, result),
      );
      const specific = fitting.filter((m) => hasRequiredMembers(schema, m.name));
      if (specific.length === 1) return plans.plan(specific[0]!.name)!;
    }
    return plans.genericResult;
  }

  /** A context file of the version being lifted: the seed's at the top of contexts/, every other under its folder. */
  private contextFile(file: string): string {
    return this.active.version === seedVersion ? file : `${this.active.version}/${file}`;
  }

  // ---- values ---------------------------------------------------------------------------------------------

  /** Lifts `subject.key = value` under `plan` (undefined: a key the schema does not know here). */
  private liftProperty(subject: string, plan: PropertyPlan | undefined, key: string, value: JsonValue): void {
    const predicate = plan?.predicate ?? extensionPredicate(key);
    if (!plan) {
      const use = this.extensionKeys.get(predicate);
      if (use) use.occurrences++;
      else this.extensionKeys.set(predicate, { key, occurrences: 1 });
    }
    const object = this.liftValue(childIri(subject, key), subject, predicate, plan?.value ?? anyPlan, value);
    this.bodySink.add(subject, predicate, object);
    // The few properties whose rdf:JSON value is also lifted as data (one map lookup for every other property).
    const derived = derivedProperties.get(predicate);
    // Only when the body keeps the value as rdf:JSON: the derived nodes' IRIs are then free (no body node has them).
    if (derived !== undefined && isJsonObject(value) && (derived === 'arguments' || plan?.value.kind === 'json'))
      this.liftDerived(derived, subject, key, value);
  }

  /** The data form of a schema, structured content or arguments (see derived.ts), beside its rdf:JSON literal. */
  private liftDerived(derived: Derived, subject: string, key: string, value: JsonObject): void {
    if (derived === 'arguments') this.liftArguments(subject, value);
    else if (derived === 'structured')
      liftMembers(this.derived, subject, mld.structuredMember, childIri(subject, key), value);
    else
      liftSchema(this.derived, subject, schemaLinks[derived], parameterLinks[derived], childIri(subject, key), value);
  }

  private liftValue(
    nodeIri: string,
    subject: string,
    predicate: string,
    plan: ValuePlan,
    value: JsonValue,
  ): ObjectValue {
    if (value === null || plan.kind === 'json') return jsonLiteral(value);
    if (Array.isArray(value)) return this.liftList(nodeIri, subject, predicate, itemPlan(plan), value);
    if (isJsonObject(value)) {
      this.liftNode(nodeIri, plan.kind === 'node' ? plan.node : undefined, value);
      return nodeIri;
    }
    return plan.kind === 'literal' ? annotatedLiteral(value, plan.datatype) : naturalLiteral(value);
  }

  private liftNode(iri: string, plan: NodePlan | undefined, value: JsonObject): void {
    if (plan) for (const c of classesFor(plan, value)) this.bodySink.add(iri, rdf.type, c);
    // for…in, not Object.entries: the same keys in the same order (a parsed object has no inherited enumerable key),
    // without an array of pairs per object.
    for (const key in value) this.liftProperty(iri, plan?.properties.get(key), key, value[key]!);
  }

  private liftList(
    nodeIri: string,
    subject: string,
    predicate: string,
    item: ValuePlan,
    values: JsonValue[],
  ): ObjectValue {
    if (values.length === 0) return rdf.nil;
    const first = listCellIri(subject, predicate, 0);
    for (let i = 0, cell = first; i < values.length; i++) {
      const object = this.liftValue(childIri(nodeIri, i), cell, rdf.first, item, values[i]!);
      this.bodySink.add(cell, rdf.first, object);
      const rest = i + 1 < values.length ? listCellIri(subject, predicate, i + 1) : rdf.nil;
      this.bodySink.add(cell, rdf.rest, rest);
      cell = rest;
    }
    return first;
  }

  /** Tool-call and prompt arguments, besides their rdf:JSON literal, as name/value pairs that queries can use. */
  private liftArguments(subject: string, args: JsonObject): void {
    for (const [name, value] of Object.entries(args)) {
      const argument = childIri(childIri(subject, 'arguments'), name);
      this.emit(subject, mld.argument, argument);
      this.emit(argument, rdf.type, mld.Argument);
      this.emitLiteral(argument, mld.argumentName, { value: name, datatype: xsd.string });
      const form = value === null || typeof value === 'object' ? jsonLiteral(value) : naturalLiteral(value);
      this.emitLiteral(argument, mld.argumentValue, form);
      // An object or array value is also lifted member by member, below its argument node.
      if (hasMembers(value)) liftMembers(this.derived, argument, mld.member, argument, value);
    }
  }

  // ---- entities, timestamps, validation -------------------------------------------------------------------

  private linkEntities(session: SessionState, iri: string, definition: string, msg: JsonObject): void {
    const serverKey = session.serverKey ?? 'unknown';
    for (const reference of entityReferences) {
      if (reference.definition !== definition) continue;
      const params = msg['params'];
      const key = isJsonObject(params) ? params[reference.key] : undefined;
      if (typeof key === 'string')
        this.emit(iri, entityLink[reference.kind], this.entity(session, serverKey, reference.kind, reference.key, key));
    }
    for (const listing of entityListings) {
      if (listing.definition !== definition) continue;
      const result = msg['result'];
      const items = isJsonObject(result) ? result[listing.list] : undefined;
      if (!Array.isArray(items)) continue;
      items.forEach((item, i) => {
        const key = isJsonObject(item) ? item[listing.key] : undefined;
        if (typeof key !== 'string') return;
        const node = childIri(childIri(childIri(iri, 'result'), listing.list), i);
        const entity = this.entity(session, serverKey, listing.kind, listing.key, key);
        this.emit(node, mld.describes, entity);
        // A tool entity has the parameters of every description of it: tools are found by parameter across sessions.
        if (listing.kind === 'tool' && isJsonObject(item)) {
          for (const parameter of topParameters(childIri(node, 'inputSchema'), item['inputSchema']))
            this.emit(entity, mld.inputParameter, parameter);
          for (const parameter of topParameters(childIri(node, 'outputSchema'), item['outputSchema']))
            this.emit(entity, mld.outputParameter, parameter);
        }
      });
    }
  }

  private entity(
    session: SessionState,
    serverKey: string,
    kind: EntityKind,
    keyName: 'name' | 'uri',
    key: string,
  ): string {
    const iri = this.minter.entity(serverKey, kind, key);
    this.describeOnce(session, iri, () => {
      this.emit(iri, rdf.type, entityClass[kind]);
      this.emit(iri, mld.server, this.serverNode(session, serverKey));
      if (keyName === 'name') this.emitLiteral(iri, `${ns.mcp}hasName`, { value: key, datatype: xsd.string });
      else this.emitLiteral(iri, `${ns.mcp}hasURI`, { value: key, datatype: xsd.anyURI });
    });
    return iri;
  }

  /** xsd:dateTime in the ISO form; the original text too when it is in another form, so lowering is exact. */
  private liftTimestamp(iri: string, ts: string, time: number): void {
    const iso = isoDateTime(time);
    this.emitLiteral(iri, mld.timestamp, { value: iso, datatype: xsd.dateTime });
    if (iso !== ts) this.emitLiteral(iri, mld.timestampText, { value: ts, datatype: xsd.string });
  }

  /** That `message` uses the extension predicate `predicate` (the key `key`), and how many times (in any node). */
  private liftExtensionKeyUse(message: string, predicate: string, key: string, occurrences: number): void {
    this.emit(message, mld.extensionKey, predicate);
    const node = extensionKeyUseIri(message, key);
    this.emit(message, mld.extensionKeyUse, node);
    this.emit(node, rdf.type, mld.ExtensionKeyUse);
    this.emit(node, mld.usedKey, predicate);
    this.emitLiteral(node, mld.occurrences, { value: String(occurrences), datatype: xsd.integer });
  }

  private liftProblem(message: string, index: number, problem: ValidationProblem): void {
    const node = childIri(childIri(message, 'validation'), index);
    this.emit(message, mld.validationResult, node);
    this.emit(node, rdf.type, mld.ValidationResult);
    this.emitLiteral(node, mld.instancePath, { value: problem.instancePath, datatype: xsd.string });
    this.emitLiteral(node, mld.schemaPath, { value: problem.schemaPath, datatype: xsd.string });
    this.emitLiteral(node, mld.keyword, { value: problem.keyword, datatype: xsd.string });
    this.emitLiteral(node, mld.message, { value: problem.message, datatype: xsd.string });
  }

  // ---- emitting -------------------------------------------------------------------------------------------

  private emit(subject: string, predicate: string, object: string): void {
    this.sink.add(subject, predicate, object);
  }

  private emitLiteral(subject: string, predicate: string, form: LiteralForm): void {
    this.sink.add(subject, predicate, form);
  }
}

const anyPlan: ValuePlan = { kind: 'any' };

/** The properties whose rdf:JSON value is also lifted as data, and how. */
type Derived = 'arguments' | 'structured' | 'input' | 'output' | 'requested';
const derivedProperties = new Map<string, Derived>([
  [`${ns.mcp}hasArguments`, 'arguments'],
  [`${ns.mcp}hasStructuredContent`, 'structured'],
  [`${ns.mcp}hasInputSchema`, 'input'],
  [`${ns.mcp}hasOutputSchema`, 'output'],
  // Also inside 2026-07-28's inputRequests: each embedded request is lifted by its own definition (linkRetry,
  // followRounds).
  [`${ns.mcp}hasRequestedSchema`, 'requested'],
]);
const schemaLinks = { input: mld.inputSchema, output: mld.outputSchema, requested: mld.requestedSchema } as const;
const parameterLinks = {
  input: mld.inputParameter,
  output: mld.outputParameter,
  requested: mld.requestedParameter,
} as const;
/** The JSON-RPC keys each shape of message lifts by the envelope's plans (see run): any other key is lifted as data. */
const liftedEnvelopeKeys: Record<MessageShape, ReadonlySet<string>> = {
  request: new Set(['id', 'method', 'params']),
  notification: new Set(['method', 'params']),
  response: new Set(['id', 'result']),
  error: new Set(['id', 'error']),
};

/** Progress tokens are the requester's: scoped by the direction of the request and the token's JSON type. */
function progressKey(requestDirection: Direction, token: string | number): string {
  return `${requestDirection} ${typeof token} ${token}`;
}

function hasRequiredMembers(schema: SchemaIndex, definition: string): boolean {
  const required = schema.definition(definition).node['required'];
  return Array.isArray(required) && required.length > 0;
}

const inputRequiredResult = 'InputRequiredResult';
/** Requests whose params a multi-round operation repeats (its retry must name the same target). */
const keepsParams = new Set(['tools/call', 'prompts/get', 'resources/read']);
const clientInfoKey = 'io.modelcontextprotocol/clientInfo';
const clientCapabilitiesKey = 'io.modelcontextprotocol/clientCapabilities';
const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';
/** W3C trace context: `version-traceid-spanid-flags`. */
const traceparent = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** A JSON-RPC id as a map key that keeps 1 and "1" apart. */
function idKey(id: JsonValue): string {
  return `${typeof id} ${String(id)}`;
}
