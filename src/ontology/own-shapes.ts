// Shapes of what the lifter adds around the schema's data (no JSON Schema describes it): every message's session
// layer (session, direction, order, timestamp), sessions, servers, entities, request-id nodes, argument pairs,
// schemas, parameters and members as data, validation results and extension key uses. Written as data;
// shapes-graph.ts turns it into SHACL.
import { jrpc, mld, ns, xsd } from '../rdf/index.js';

export interface OwnPropertyShape {
  path: string;
  min?: number;
  max?: number;
  /** One datatype, or several (sh:or). */
  datatypes?: string[];
  class?: string;
  in?: string[];
}

interface OwnNodeShape {
  /** Local name in the shapes namespace. */
  name: string;
  targets: string[];
  comment: string;
  properties: OwnPropertyShape[];
}

const one = { min: 1, max: 1 };
const string = [xsd.string];

export const ownShapes: readonly OwnNodeShape[] = [
  {
    name: 'mld.Message',
    targets: [jrpc.Request, jrpc.Notification, jrpc.Response, jrpc.ErrorResponse],
    comment: 'Every message: its session, direction and order, and at most one capture time.',
    properties: [
      { path: mld.inSession, ...one, class: mld.Session },
      { path: mld.direction, ...one, in: [mld.clientToServer, mld.serverToClient] },
      { path: mld.order, ...one, datatypes: [xsd.integer] },
      { path: mld.captureSeq, max: 1, datatypes: [xsd.integer] },
      { path: mld.timestamp, max: 1, datatypes: [xsd.dateTime] },
      { path: mld.timestampText, max: 1, datatypes: string },
      { path: mld.mcpMethodHeader, max: 1, datatypes: string },
      { path: mld.mcpNameHeader, max: 1, datatypes: string },
      { path: mld.server, max: 1, class: mld.Server },
      { path: mld.respondsTo, max: 1, class: jrpc.Request },
      { path: mld.answersMethod, max: 1, datatypes: string },
      { path: mld.latencyMs, max: 1, datatypes: [xsd.decimal] },
      { path: mld.cancels, max: 1, class: jrpc.Request },
      { path: mld.progressOf, max: 1, class: jrpc.Request },
      { path: mld.validationResult, class: mld.ValidationResult },
      { path: mld.extensionKeyUse, class: mld.ExtensionKeyUse },
    ],
  },
  {
    name: 'mld.Session',
    targets: [mld.Session],
    comment: 'A session has one id.',
    properties: [{ path: mld.sessionId, ...one, datatypes: string }],
  },
  {
    name: 'mld.Server',
    targets: [mld.Server],
    comment: 'A server has at most one name: none when the traffic never named it (plain messages without initialize).',
    properties: [{ path: mld.serverName, max: 1, datatypes: string }],
  },
  {
    name: 'mld.NamedEntity',
    targets: [mld.Tool, mld.Prompt],
    comment: 'A tool or prompt entity: one name, one server.',
    properties: [
      { path: `${ns.mcp}hasName`, ...one, datatypes: string },
      { path: mld.server, ...one, class: mld.Server },
    ],
  },
  {
    name: 'mld.Resource',
    targets: [mld.Resource],
    comment: 'A resource entity: one URI, one server.',
    properties: [
      { path: `${ns.mcp}hasURI`, ...one, datatypes: [xsd.anyURI] },
      { path: mld.server, ...one, class: mld.Server },
    ],
  },
  {
    name: 'mld.Argument',
    targets: [mld.Argument],
    comment: 'An argument pair: one name, one value.',
    properties: [
      { path: mld.argumentName, ...one, datatypes: string },
      { path: mld.argumentValue, ...one },
    ],
  },
  {
    name: 'mld.Schema',
    targets: [mld.Schema],
    comment:
      'A schema as data: JSON types as strings, at most one dialect, title and description, nested parameters and items as nodes.',
    properties: [
      { path: mld.jsonType, datatypes: string },
      ...[mld.schemaDialect, mld.title, mld.description, mld.format, mld.pattern].map((path) => ({
        path,
        max: 1,
        datatypes: string,
      })),
      { path: mld.additionalProperties, max: 1, datatypes: [xsd.boolean] },
      { path: mld.default, max: 1 },
      { path: mld.nestedParameter, class: mld.Parameter },
      { path: mld.items, max: 1, class: mld.Schema },
    ],
  },
  {
    name: 'mld.Parameter',
    targets: [mld.Parameter],
    comment: 'A parameter: one name, and whether it is required.',
    properties: [
      { path: mld.parameterName, ...one, datatypes: string },
      { path: mld.required, ...one, datatypes: [xsd.boolean] },
    ],
  },
  {
    name: 'mld.Member',
    targets: [mld.Member],
    comment: 'A member: a name (object member) or an index (array member), and a value or members of its own.',
    properties: [
      { path: mld.memberName, max: 1, datatypes: string },
      { path: mld.memberIndex, max: 1, datatypes: [xsd.integer] },
      { path: mld.memberValue, max: 1 },
      { path: mld.member, class: mld.Member },
    ],
  },
  {
    name: 'mld.ValidationResult',
    targets: [mld.ValidationResult],
    comment: 'A validation problem: where, which keyword, what.',
    properties: [mld.instancePath, mld.schemaPath, mld.keyword, mld.message].map((path) => ({
      path,
      ...one,
      datatypes: string,
    })),
  },
  {
    name: 'mld.ExtensionKeyUse',
    targets: [mld.ExtensionKeyUse],
    comment: 'The uses of one extension key in one message: one key, and how many times it occurs.',
    properties: [
      { path: mld.usedKey, ...one },
      { path: mld.occurrences, ...one, datatypes: [xsd.integer] },
    ],
  },
  {
    name: 'jsonrpc.StringId',
    targets: [jrpc.StringId],
    comment: 'A string id has one string value.',
    properties: [{ path: jrpc.hasStringValue, ...one, datatypes: string }],
  },
  {
    name: 'jsonrpc.NumberId',
    targets: [jrpc.NumberId],
    comment: 'A number id has one number value (xsd:integer for integers).',
    properties: [{ path: jrpc.hasNumberValue, ...one, datatypes: [xsd.integer, xsd.decimal, xsd.double] }],
  },
];
