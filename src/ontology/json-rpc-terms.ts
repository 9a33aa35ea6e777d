// The JSON-RPC 2.0 terms the JSON-RPC schema only names (its `x-jsonld-extra-terms`) and the lifter uses: message,
// id and error classes, with their hierarchy and meaning as the JSON-RPC 2.0 specification gives it, and the
// properties of the lifter's id nodes. Which JSON-RPC class each envelope anchor stands for is stated here, once.
import { jrpc, ns, xsd } from '../rdf/index.js';

/** The class of messages each JSON-RPC anchor describes (`ErrorResponse`: the `#Response` branch with `error`). */
export const envelopeClasses: Readonly<Record<string, string>> = {
  Request: jrpc.Request,
  Notification: jrpc.Notification,
  Response: jrpc.Response,
  ErrorResponse: jrpc.ErrorResponse,
};

/** JSON-RPC schema definitions whose objects the lifter types (`error` objects are jrpc:Error nodes). */
export const jsonRpcObjectClasses: Readonly<Record<string, string>> = { ErrorObject: jrpc.Error };

/** The classes of the lifter's request-id nodes (one per JSON type of `id`). */
export const requestIdClasses: readonly string[] = [jrpc.StringId, jrpc.NumberId, jrpc.NullId];

/**
 * Envelope keys the JSON-RPC schema types `@json` and MCP refines: every MCP definition (and the lifter's fallbacks
 * for unknown methods) makes `params` and `result` nodes, so the envelope constrains only their presence.
 */
export const refinedEnvelopeKeys: ReadonlySet<string> = new Set(['params', 'result']);

export interface TermDescription {
  iri: string;
  label: string;
  comment: string;
  superClasses?: string[];
}

const spec = 'JSON-RPC 2.0 specification';

/** The JSON-RPC classes, as the JSON-RPC 2.0 specification describes them. */
export const jsonRpcClasses: readonly TermDescription[] = [
  {
    iri: `${ns.jrpc}Message`,
    label: 'JSON-RPC message',
    comment: `Any JSON-RPC 2.0 message: a request, a notification, a response or an error response (${spec}).`,
  },
  {
    iri: jrpc.Request,
    label: 'Request',
    comment: 'A JSON-RPC call that expects a response: it has a method, optional parameters and an id.',
    superClasses: [`${ns.jrpc}Message`],
  },
  {
    iri: jrpc.Notification,
    label: 'Notification',
    comment: 'A JSON-RPC call without an id, to which no response is sent.',
    superClasses: [`${ns.jrpc}Message`],
  },
  {
    iri: jrpc.Response,
    label: 'Response',
    comment: 'A successful JSON-RPC response: it has the id of the request it answers and a result.',
    superClasses: [`${ns.jrpc}Message`],
  },
  {
    iri: jrpc.ErrorResponse,
    label: 'Error response',
    comment:
      'A JSON-RPC response reporting that a request failed: it has the id of the request it answers and an error.',
    superClasses: [`${ns.jrpc}Message`],
  },
  {
    iri: jrpc.Error,
    label: 'Error',
    comment: 'The error object of an error response: a code, a message and optional data.',
  },
  {
    iri: `${ns.jrpc}RequestId`,
    label: 'Request ID',
    comment:
      'The id of a request, which its response repeats. mcp-ld makes one node per (session, direction of the request, JSON type, value), so ids never collide across sessions, directions or types.',
  },
  {
    iri: jrpc.StringId,
    label: 'String ID',
    comment: 'A request id that is a JSON string; its value is jrpc:hasStringValue.',
    superClasses: [`${ns.jrpc}RequestId`],
  },
  {
    iri: jrpc.NumberId,
    label: 'Number ID',
    comment: 'A request id that is a JSON number; its value is jrpc:hasNumberValue.',
    superClasses: [`${ns.jrpc}RequestId`],
  },
  {
    iri: jrpc.NullId,
    label: 'Null ID',
    comment: 'A request id that is JSON null (an error response to a request whose id could not be read).',
    superClasses: [`${ns.jrpc}RequestId`],
  },
  {
    iri: `${ns.jrpc}ParseError`,
    label: 'Parse error',
    comment: 'An error with code -32700: invalid JSON was received.',
    superClasses: [jrpc.Error],
  },
  {
    iri: `${ns.jrpc}InvalidRequest`,
    label: 'Invalid request',
    comment: 'An error with code -32600: the JSON sent is not a valid request object.',
    superClasses: [jrpc.Error],
  },
  {
    iri: `${ns.jrpc}MethodNotFound`,
    label: 'Method not found',
    comment: 'An error with code -32601: the method does not exist or is not available.',
    superClasses: [jrpc.Error],
  },
  {
    iri: `${ns.jrpc}InvalidParams`,
    label: 'Invalid params',
    comment: 'An error with code -32602: invalid method parameters.',
    superClasses: [jrpc.Error],
  },
  {
    iri: `${ns.jrpc}InternalError`,
    label: 'Internal error',
    comment: 'An error with code -32603: an internal JSON-RPC error.',
    superClasses: [jrpc.Error],
  },
  {
    iri: `${ns.jrpc}ServerError`,
    label: 'Server error',
    comment: 'An error with a code from -32099 to -32000, reserved for implementation-defined server errors.',
    superClasses: [jrpc.Error],
  },
];

export interface PropertyDescription {
  iri: string;
  kind: 'object' | 'datatype';
  label: string;
  comment: string;
  domain: string[];
  /** The domain is that of another property (the node that has it has this one too). */
  domainOf?: string;
  /** A class or datatype; several: their union. */
  range?: string | string[];
}

/** Properties of the id nodes (the JSON-RPC schema declares them as extra terms; no message key carries them). */
export const jsonRpcIdProperties: readonly PropertyDescription[] = [
  {
    iri: jrpc.hasStringValue,
    kind: 'datatype',
    label: 'has string value',
    comment: 'The value of a string request id.',
    domain: [jrpc.StringId],
    range: xsd.string,
  },
  {
    iri: jrpc.hasNumberValue,
    kind: 'datatype',
    label: 'has number value',
    comment: 'The value of a number request id (xsd:integer for integers).',
    domain: [jrpc.NumberId],
    range: xsd.decimal,
  },
];
