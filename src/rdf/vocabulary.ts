// The IRIs mcp-ld uses besides the schema's own: its namespace for sessions, direction, timestamps, entities and
// validation results (`mld:`), the extension namespace for keys the schema does not know (`mldx:`), and the
// standard ones. Also the rules that mint instance IRIs from a base, so that every stage mints them alike.
import { flatString } from '../core/flat-string.js';

/** The XSD datatypes of integers (local names): xsd:integer and the types derived from it. */
export const xsdIntegerTypes = [
  'integer',
  'int',
  'long',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'nonPositiveInteger',
  'negativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
] as const;

/** The other XSD datatypes of numbers (local names). */
export const xsdDecimalTypes = ['decimal', 'double', 'float'] as const;

export const ns = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  mcp: 'http://modelcontextprotocol.io/ontology#',
  jrpc: 'http://json-rpc.org/ontology#',
  mld: 'https://w3id.org/mcp-ld/ns#',
  mldx: 'https://w3id.org/mcp-ld/ext#',
} as const;

export const rdf = {
  type: `${ns.rdf}type`,
  first: `${ns.rdf}first`,
  rest: `${ns.rdf}rest`,
  nil: `${ns.rdf}nil`,
  JSON: `${ns.rdf}JSON`,
} as const;

export const xsd = {
  string: `${ns.xsd}string`,
  boolean: `${ns.xsd}boolean`,
  integer: `${ns.xsd}integer`,
  decimal: `${ns.xsd}decimal`,
  double: `${ns.xsd}double`,
  float: `${ns.xsd}float`,
  dateTime: `${ns.xsd}dateTime`,
  anyURI: `${ns.xsd}anyURI`,
  base64Binary: `${ns.xsd}base64Binary`,
} as const;

export const jrpc = {
  version: `${ns.jrpc}version`,
  hasId: `${ns.jrpc}hasId`,
  hasMethod: `${ns.jrpc}hasMethod`,
  hasParameters: `${ns.jrpc}hasParameters`,
  hasResult: `${ns.jrpc}hasResult`,
  hasError: `${ns.jrpc}hasError`,
  Request: `${ns.jrpc}Request`,
  Notification: `${ns.jrpc}Notification`,
  Response: `${ns.jrpc}Response`,
  ErrorResponse: `${ns.jrpc}ErrorResponse`,
  Error: `${ns.jrpc}Error`,
  NumberId: `${ns.jrpc}NumberId`,
  StringId: `${ns.jrpc}StringId`,
  NullId: `${ns.jrpc}NullId`,
  hasNumberValue: `${ns.jrpc}hasNumberValue`,
  hasStringValue: `${ns.jrpc}hasStringValue`,
} as const;

/** mcp-ld's own terms. The ontology stage declares each of them. */
export const mld = {
  Session: `${ns.mld}Session`,
  Server: `${ns.mld}Server`,
  Tool: `${ns.mld}Tool`,
  Prompt: `${ns.mld}Prompt`,
  Resource: `${ns.mld}Resource`,
  Argument: `${ns.mld}Argument`,
  Schema: `${ns.mld}Schema`,
  Parameter: `${ns.mld}Parameter`,
  Member: `${ns.mld}Member`,
  ValidationResult: `${ns.mld}ValidationResult`,
  ExtensionKeyUse: `${ns.mld}ExtensionKeyUse`,
  UnknownMessage: `${ns.mld}UnknownMessage`,
  RawLine: `${ns.mld}RawLine`,
  rawText: `${ns.mld}rawText`,
  rawBytes: `${ns.mld}rawBytes`,
  clientToServer: `${ns.mld}clientToServer`,
  serverToClient: `${ns.mld}serverToClient`,
  inSession: `${ns.mld}inSession`,
  sessionId: `${ns.mld}sessionId`,
  direction: `${ns.mld}direction`,
  timestamp: `${ns.mld}timestamp`,
  timestampText: `${ns.mld}timestampText`,
  order: `${ns.mld}order`,
  captureSeq: `${ns.mld}captureSeq`,
  mcpMethodHeader: `${ns.mld}mcpMethodHeader`,
  mcpNameHeader: `${ns.mld}mcpNameHeader`,
  schemaVersion: `${ns.mld}schemaVersion`,
  Operation: `${ns.mld}Operation`,
  InputRequest: `${ns.mld}InputRequest`,
  InputResponse: `${ns.mld}InputResponse`,
  Subscription: `${ns.mld}Subscription`,
  operation: `${ns.mld}operation`,
  attempt: `${ns.mld}attempt`,
  attempts: `${ns.mld}attempts`,
  rounds: `${ns.mld}rounds`,
  outcome: `${ns.mld}outcome`,
  totalLatencyMs: `${ns.mld}totalLatencyMs`,
  finalResponse: `${ns.mld}finalResponse`,
  answersInputRequired: `${ns.mld}answersInputRequired`,
  inputRequest: `${ns.mld}inputRequest`,
  inputResponse: `${ns.mld}inputResponse`,
  inputKey: `${ns.mld}inputKey`,
  respondsToInput: `${ns.mld}respondsToInput`,
  taskRequest: `${ns.mld}taskRequest`,
  taskResult: `${ns.mld}taskResult`,
  subscription: `${ns.mld}subscription`,
  traceId: `${ns.mld}traceId`,
  spanId: `${ns.mld}spanId`,
  declaredVersion: `${ns.mld}declaredVersion`,
  server: `${ns.mld}server`,
  serverName: `${ns.mld}serverName`,
  client: `${ns.mld}client`,
  serverImplementation: `${ns.mld}serverImplementation`,
  protocolVersion: `${ns.mld}protocolVersion`,
  requestedProtocolVersion: `${ns.mld}requestedProtocolVersion`,
  clientCapabilities: `${ns.mld}clientCapabilities`,
  serverCapabilities: `${ns.mld}serverCapabilities`,
  respondsTo: `${ns.mld}respondsTo`,
  latencyMs: `${ns.mld}latencyMs`,
  answersMethod: `${ns.mld}answersMethod`,
  cancels: `${ns.mld}cancels`,
  progressOf: `${ns.mld}progressOf`,
  extensionKey: `${ns.mld}extensionKey`,
  extensionKeyUse: `${ns.mld}extensionKeyUse`,
  usedKey: `${ns.mld}usedKey`,
  occurrences: `${ns.mld}occurrences`,
  tool: `${ns.mld}tool`,
  prompt: `${ns.mld}prompt`,
  resource: `${ns.mld}resource`,
  describes: `${ns.mld}describes`,
  argument: `${ns.mld}argument`,
  argumentName: `${ns.mld}argumentName`,
  argumentValue: `${ns.mld}argumentValue`,
  inputSchema: `${ns.mld}inputSchema`,
  outputSchema: `${ns.mld}outputSchema`,
  requestedSchema: `${ns.mld}requestedSchema`,
  inputParameter: `${ns.mld}inputParameter`,
  outputParameter: `${ns.mld}outputParameter`,
  requestedParameter: `${ns.mld}requestedParameter`,
  nestedParameter: `${ns.mld}nestedParameter`,
  items: `${ns.mld}items`,
  parameterName: `${ns.mld}parameterName`,
  required: `${ns.mld}required`,
  jsonType: `${ns.mld}jsonType`,
  schemaDialect: `${ns.mld}schemaDialect`,
  title: `${ns.mld}title`,
  description: `${ns.mld}description`,
  format: `${ns.mld}format`,
  pattern: `${ns.mld}pattern`,
  minimum: `${ns.mld}minimum`,
  maximum: `${ns.mld}maximum`,
  exclusiveMinimum: `${ns.mld}exclusiveMinimum`,
  exclusiveMaximum: `${ns.mld}exclusiveMaximum`,
  minLength: `${ns.mld}minLength`,
  maxLength: `${ns.mld}maxLength`,
  minItems: `${ns.mld}minItems`,
  maxItems: `${ns.mld}maxItems`,
  additionalProperties: `${ns.mld}additionalProperties`,
  enumValue: `${ns.mld}enumValue`,
  constValue: `${ns.mld}constValue`,
  default: `${ns.mld}default`,
  structuredMember: `${ns.mld}structuredMember`,
  member: `${ns.mld}member`,
  memberName: `${ns.mld}memberName`,
  memberIndex: `${ns.mld}memberIndex`,
  memberValue: `${ns.mld}memberValue`,
  validationResult: `${ns.mld}validationResult`,
  instancePath: `${ns.mld}instancePath`,
  schemaPath: `${ns.mld}schemaPath`,
  keyword: `${ns.mld}keyword`,
  message: `${ns.mld}message`,
} as const;

export const defaultBase = 'urn:mcp-ld:';

const plainSegment = /^[A-Za-z0-9_.-]*$/;

/** Encodes a JSON key or value as one IRI path segment (every reserved character and `~` escaped). */
export function encodeSegment(text: string): string {
  if (plainSegment.test(text)) return text; // most keys and ids: nothing to escape
  const encoded = isWellFormedText(text) ? encodeURIComponent(text) : encodeCodeUnits(text);
  return encoded.replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The text of an encoded segment (an extension key, say), lone surrogates included. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return decodeCodeUnits(segment);
  }
}

const isWellFormedText = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A key may hold a lone surrogate (JSON allows `"\udc00"`), which UTF-8 cannot encode: such a code unit is written
 * as the three bytes it would have in UTF-8 were it a code point (as WTF-8 does), percent-encoded, so that the
 * segment is a valid IRI and decodes back to the same key.
 */
function encodeCodeUnits(text: string): string {
  let encoded = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      encoded += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else encoded += encodeURIComponent(text[i]!);
  }
  return encoded;
}

/** Decodes percent-encoded UTF-8, with the three-byte forms of lone surrogates that encodeCodeUnits writes. */
function decodeCodeUnits(segment: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(segment.slice(i + 1, i + 3))) {
      bytes.push(parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(segment[i]!, 'utf8'));
  }
  let text = '';
  for (let i = 0; i < bytes.length;) {
    const byte = bytes[i]!;
    const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    const unit = bytes.slice(i, i + length);
    const surrogate = length === 3 && byte === 0xed && unit[1]! >= 0xa0;
    text += surrogate
      ? String.fromCharCode(((byte & 0x0f) << 12) | ((unit[1]! & 0x3f) << 6) | (unit[2]! & 0x3f))
      : Buffer.from(unit).toString('utf8');
    i += length;
  }
  return text;
}

/** The predicate that keeps a key the schema does not know. */
const vocabularyKey = /^[A-Za-z0-9_.\-/]*$/;

/**
 * The predicate of a key the schema does not know: the key appended to the extension namespace, as a JSON-LD
 * processor expands it with the message contexts' `@vocab`, when it is made of letters, digits and `_.-/` only
 * (`io.modelcontextprotocol/related-task`); any other key percent-encoded (`%24schema`), so that every key has an
 * IRI and reads back.
 */
export function extensionPredicate(key: string): string {
  return ns.mldx + (vocabularyKey.test(key) ? key : encodeSegment(key));
}

/** The key an extension predicate keeps, or undefined for any other IRI. */
export function extensionKey(predicate: string): string | undefined {
  return predicate.startsWith(ns.mldx) ? decodeSegment(predicate.slice(ns.mldx.length)) : undefined;
}

/** Mints the instance IRIs of one base. */
export class IriMinter {
  private readonly sessions = new Map<string, string>();

  constructor(readonly base: string = defaultBase) {}

  session(sessionId: string): string {
    let iri = this.sessions.get(sessionId);
    if (iri === undefined) {
      iri = flatString(`${this.base}session/${encodeSegment(sessionId)}`);
      if (this.sessions.size > 10_000) this.sessions.clear();
      this.sessions.set(sessionId, iri);
    }
    return iri;
  }

  message(sessionId: string, order: number): string {
    return flatString(`${this.session(sessionId)}/message/${order}`);
  }

  /** A request id is scoped by session, the direction of its request, and its JSON type. */
  requestId(sessionId: string, requestDirection: string, id: string | number | null): string {
    const kind = id === null ? 'null' : typeof id === 'number' ? 'n' : 's';
    const value = id === null ? '' : `/${encodeSegment(String(id))}`;
    return flatString(`${this.session(sessionId)}/id/${requestDirection}/${kind}${value}`);
  }

  server(serverKey: string): string {
    return flatString(`${this.base}server/${encodeSegment(serverKey)}`);
  }

  entity(serverKey: string, kind: 'tool' | 'prompt' | 'resource', key: string): string {
    return flatString(`${this.server(serverKey)}/${kind}/${encodeSegment(key)}`);
  }

  implementation(name: string, version: string | undefined): string {
    return `${this.base}implementation/${encodeSegment(name)}${version === undefined ? '' : `/${encodeSegment(version)}`}`;
  }
}

/** A node below `parent` reached through JSON key or array index `step`. */
export function childIri(parent: string, step: string | number): string {
  return flatString(`${parent}/${typeof step === 'number' ? step : encodeSegment(step)}`);
}

/**
 * The node that counts the uses of the key the schema does not know `key` in `message`: below the message, so its
 * triples are the message's, under a segment no JSON key or list cell gives (childIri escapes `~`; a list cell's
 * segment ends in `~` and digits).
 */
export function extensionKeyUseIri(message: string, key: string): string {
  return `${message}/~extensionKey/${encodeSegment(key)}`;
}

/** The cell `index` of the RDF list that `subject` holds through `predicate` (skolem IRIs, not blank nodes). */
export function listCellIri(subject: string, predicate: string, index: number): string {
  const local = predicate.slice(Math.max(predicate.lastIndexOf('#'), predicate.lastIndexOf('/')) + 1);
  return flatString(`${subject}/${encodeSegment(local)}~${index}`);
}
