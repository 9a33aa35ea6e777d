// mcp-ld's own vocabulary (`mld:`), described for the ontology: what each term of src/rdf/vocabulary.ts means,
// its domain and range, and the extension namespace (`mldx:`). The generator fails when vocabulary.ts gains a term
// that has no description here, so the ontology always declares every term the lifter can write.
// Longer than 400 lines once formatted on purpose: it is a table with one entry per term, and nothing else.
import { entityReferences, type EntityKind, jrpc, mld, ns, xsd } from '../rdf/index.js';
import type { PropertyDescription, TermDescription } from './json-rpc-terms.js';

/** The class of the two direction individuals (not written by the lifter: the ontology's own). */
const directionClass = `${ns.mld}Direction`;

/**
 * The range of every property whose value is an RDF list (a JSON array, `@list`): OWL 2 DL reserves rdf:List, which
 * cannot be a class there. The lifter does not type list nodes; the range says what they are.
 */
export const listClass = `${ns.mld}List`;

const anyMessage = [jrpc.Request, jrpc.Notification, jrpc.Response, jrpc.ErrorResponse];
const mcpClass = (definition: string) => `${ns.mcp}${definition}`;
const entityClasses: Record<EntityKind, string> = { tool: mld.Tool, prompt: mld.Prompt, resource: mld.Resource };

export const ownClasses: readonly TermDescription[] = [
  {
    iri: mld.Session,
    label: 'Session',
    comment:
      'One MCP session (one client-server connection) of a capture. It is also the named graph that holds its messages; messages link to it with mld:inSession.',
  },
  {
    iri: mld.Server,
    label: 'Server',
    comment:
      'An MCP server, as a capture names it (the `server` of its records, else the name in its initialize result). Tools, prompts and resources belong to a server.',
  },
  {
    iri: mld.Tool,
    label: 'Tool (entity)',
    comment:
      'A tool a server offers, one node per (server, tool name) across sessions. tools/call requests link to it with mld:tool; each mcp:Tool description in a tools/list result links to it with mld:describes.',
  },
  {
    iri: mld.Prompt,
    label: 'Prompt (entity)',
    comment:
      'A prompt a server offers, one node per (server, prompt name) across sessions. prompts/get requests link to it with mld:prompt; prompts/list results describe it.',
  },
  {
    iri: mld.Resource,
    label: 'Resource (entity)',
    comment:
      'A resource a server offers, one node per (server, URI) across sessions. Reads, subscriptions and update notifications link to it with mld:resource; resources/list and resources/read results describe it.',
  },
  {
    iri: mld.Argument,
    label: 'Argument',
    comment:
      'One name/value pair of the arguments of a tool call, a prompt request or a completion context (whose arguments object is also kept whole as an rdf:JSON literal), so that queries can use the arguments one by one. An object or array value also has its members (mld:member).',
  },
  {
    iri: mld.Schema,
    label: 'Schema (as data)',
    comment:
      "A JSON Schema, or a subschema of one, lifted as data beside the rdf:JSON literal that keeps it whole: a tool's inputSchema or outputSchema, an elicitation's requestedSchema, the schema of a parameter's array items. Its JSON type, dialect, constraints, enum values and default, and its properties as mld:Parameter nodes. Named by its JSON path below the node that holds the literal; lowering ignores it.",
  },
  {
    iri: mld.Parameter,
    label: 'Parameter',
    comment:
      "One entry of the `properties` of a schema (mld:Schema): its name, whether the schema's `required` names it, and its own schema (type, description, enum values, default, nested parameters, items).",
    superClasses: [mld.Schema],
  },
  {
    iri: mld.Member,
    label: 'Member',
    comment:
      'One member of a JSON object (its key) or array (its position) lifted as data beside the rdf:JSON literal that keeps the whole: the structured content of a tool result, the object and array values of arguments. A scalar member has its value; an object or array member has members of its own. Lowering ignores it.',
  },
  {
    iri: mld.ValidationResult,
    label: 'Validation result',
    comment:
      'A problem found when validating a message against its definition in the MCP schema (JSON Schema, ajv): where in the message, which schema keyword, and the message ajv gave.',
  },
  {
    iri: mld.ExtensionKeyUse,
    label: 'Extension key use',
    comment:
      'The uses of one key the schema does not know (an mldx: predicate) in one message: which key (mld:usedKey) and how many times it occurs in the message (mld:occurrences), in its envelope, params, result or error, at any depth, so that queries count keys without walking the JSON tree. Lowering ignores it.',
  },
  {
    iri: mld.UnknownMessage,
    label: 'Unknown message',
    comment:
      'A request or notification whose method the schema does not know (a newer protocol version, a vendor extension). Its parameters are lifted by the generic Request/Notification definitions; keys the schema does not know are kept under mldx:.',
  },
  {
    iri: mld.Operation,
    label: 'Operation (multi-round request)',
    comment:
      'A request of MCP 2026-07-28 that the server answered with an InputRequiredResult, and every retry after it (each a new request with inputResponses): one operation of several rounds, with its number of rounds, its outcome and its total latency once it has ended.',
  },
  {
    iri: mld.InputRequest,
    label: 'Input request',
    comment:
      "One entry of an InputRequiredResult's inputRequests (2026-07-28): a request the server embeds for the client to fulfil (elicitation/create, sampling/createMessage, roots/list), typed and lifted by its own definition; the inputRequests object is also kept whole as an rdf:JSON literal.",
  },
  {
    iri: mld.InputResponse,
    label: 'Input response',
    comment:
      "One entry of a retry's inputResponses (2026-07-28): the client's result for the input request of the same key, lifted by that request's result definition; the inputResponses object is also kept whole as an rdf:JSON literal.",
  },
  {
    iri: mld.Subscription,
    label: 'Subscription',
    comment:
      "A subscriptions/listen request (2026-07-28): the channel the server's change notifications arrive on. The acknowledgement and every notification tagged with its id link to it with mld:subscription; its filter is its mcp:hasSubscriptionFilter; notifications/cancelled ends it (mld:cancels).",
  },
  {
    iri: mld.RawLine,
    label: 'Raw line',
    comment:
      "A line the tap relayed that was not JSON (a banner or log line a server printed on stdout), kept with its text, direction, time and place among the session's messages, so that lowering gives the capture back whole.",
  },
  {
    iri: directionClass,
    label: 'Direction',
    comment: 'The direction a message travels: mld:clientToServer or mld:serverToClient.',
  },
  {
    iri: listClass,
    label: 'List',
    comment:
      'An RDF list (rdf:first, rdf:rest, ending in rdf:nil), which is what the lifter makes of a JSON array: the range of ' +
      'every property whose value is one. The ontology names this class rather than rdf:List, which OWL 2 DL reserves; ' +
      'the lifter does not type list nodes with either.',
  },
];

export const ownIndividuals: readonly (TermDescription & { type: string })[] = [
  {
    iri: mld.clientToServer,
    type: directionClass,
    label: 'client to server',
    comment: 'A message sent by the client to the server.',
  },
  {
    iri: mld.serverToClient,
    type: directionClass,
    label: 'server to client',
    comment: 'A message sent by the server to the client.',
  },
];

function referencing(kind: EntityKind): string[] {
  return entityReferences.filter((r) => r.kind === kind).map((r) => mcpClass(r.definition));
}

/** Schema keywords lifted one literal each: [term, keyword, label, whose, range]. */
function schemaKeywords(keywords: [string, string, string, string, string?][]): PropertyDescription[] {
  return keywords.map(([iri, keyword, label, whose, range]) => ({
    iri,
    kind: 'datatype',
    label,
    comment: `The \`${keyword}\` of ${whose}.`,
    domain: [mld.Schema],
    ...(range === undefined ? {} : { range }),
  }));
}

export const ownProperties: readonly PropertyDescription[] = [
  {
    iri: mld.inSession,
    kind: 'object',
    label: 'in session',
    comment: 'The session a message belongs to.',
    domain: anyMessage,
    range: mld.Session,
  },
  {
    iri: mld.sessionId,
    kind: 'datatype',
    label: 'session id',
    comment: 'The id of a session, as the capture gives it (or as derived from the input).',
    domain: [mld.Session],
    range: xsd.string,
  },
  {
    iri: mld.direction,
    kind: 'object',
    label: 'direction',
    comment: 'Which way a message travels.',
    domain: anyMessage,
    range: directionClass,
  },
  {
    iri: mld.timestamp,
    kind: 'datatype',
    label: 'timestamp',
    comment: "When the message was captured (the record's `ts`, in ISO 8601 UTC form).",
    domain: anyMessage,
    range: xsd.dateTime,
  },
  {
    iri: mld.timestampText,
    kind: 'datatype',
    label: 'timestamp text',
    comment:
      "The record's `ts` as written, when it is not in the ISO form of mld:timestamp (so that lowering reproduces it exactly).",
    domain: anyMessage,
    range: xsd.string,
  },
  {
    iri: mld.order,
    kind: 'datatype',
    label: 'order',
    comment: 'The position of a message in its session, from 1.',
    domain: anyMessage,
    range: xsd.integer,
  },
  {
    iri: mld.captureSeq,
    kind: 'datatype',
    label: 'capture sequence number',
    comment: 'The `seq` of the capture record the message came from.',
    domain: anyMessage,
    range: xsd.integer,
  },
  {
    iri: mld.mcpMethodHeader,
    kind: 'datatype',
    label: 'Mcp-Method header',
    comment:
      "The `Mcp-Method` header of the HTTP request that carried the message (Streamable HTTP of 2026-07-28), as sent: the record's `http.mcpMethod`. It mirrors the message's method; a query can compare the two.",
    domain: [...anyMessage, mld.RawLine],
    range: xsd.string,
  },
  {
    iri: mld.mcpNameHeader,
    kind: 'datatype',
    label: 'Mcp-Name header',
    comment:
      "The `Mcp-Name` header of the HTTP request that carried the message (2026-07-28: tools/call, prompts/get, resources/read), as sent, in the `=?base64?…?=` form where the client used it: the record's `http.mcpName`.",
    domain: [...anyMessage, mld.RawLine],
    range: xsd.string,
  },
  {
    iri: mld.schemaVersion,
    kind: 'datatype',
    label: 'schema version',
    comment:
      "The MCP protocol version whose schema the message was lifted by: the one it declares (2026-07-28's `_meta`), the one its session negotiated with initialize, or the one asked for; a version mcp-ld does not know is read by the newest older one it knows.",
    domain: anyMessage,
    range: xsd.string,
  },
  {
    iri: mld.declaredVersion,
    kind: 'datatype',
    label: 'declared version',
    comment:
      'The protocol version a message declared when mcp-ld does not know it (mld:schemaVersion says which known version it was lifted by instead).',
    domain: anyMessage,
    range: xsd.string,
  },
  {
    iri: mld.server,
    kind: 'object',
    label: 'server',
    comment:
      'The server a session talks to, a message was exchanged with, or an entity (tool, prompt, resource) belongs to.',
    domain: [mld.Session, ...anyMessage, mld.Tool, mld.Prompt, mld.Resource],
    range: mld.Server,
  },
  {
    iri: mld.serverName,
    kind: 'datatype',
    label: 'server name',
    comment: 'The name by which the capture knows a server.',
    domain: [mld.Server],
    range: xsd.string,
  },
  {
    iri: mld.client,
    kind: 'object',
    label: 'client',
    comment:
      "The client implementation of a session (its initialize request's clientInfo, one node per name and version).",
    domain: [mld.Session],
    range: mcpClass('Implementation'),
  },
  {
    iri: mld.serverImplementation,
    kind: 'object',
    label: 'server implementation',
    comment:
      "The server implementation of a session (its initialize result's serverInfo, one node per name and version).",
    domain: [mld.Session],
    range: mcpClass('Implementation'),
  },
  {
    iri: mld.protocolVersion,
    kind: 'datatype',
    label: 'protocol version',
    comment: 'The protocol version a session runs: the one the server answered in its initialize result.',
    domain: [mld.Session],
    range: xsd.string,
  },
  {
    iri: mld.requestedProtocolVersion,
    kind: 'datatype',
    label: 'requested protocol version',
    comment: 'The protocol version the client asked for in its initialize request.',
    domain: [mld.Session],
    range: xsd.string,
  },
  {
    iri: mld.clientCapabilities,
    kind: 'object',
    label: 'client capabilities',
    comment: 'The capabilities the client declared in its initialize request.',
    domain: [mld.Session],
    range: mcpClass('ClientCapabilities'),
  },
  {
    iri: mld.serverCapabilities,
    kind: 'object',
    label: 'server capabilities',
    comment: 'The capabilities the server declared in its initialize result.',
    domain: [mld.Session],
    range: mcpClass('ServerCapabilities'),
  },
  {
    iri: mld.respondsTo,
    kind: 'object',
    label: 'responds to',
    comment: 'The request a response or error response answers (same id, opposite direction, same session).',
    domain: [jrpc.Response, jrpc.ErrorResponse],
    range: jrpc.Request,
  },
  {
    iri: mld.answersMethod,
    kind: 'datatype',
    label: 'answers method',
    comment:
      'The method of the request a response or error response answers (the jrpc:hasMethod of its mld:respondsTo), so that traffic can be counted per method without the hop.',
    domain: [jrpc.Response, jrpc.ErrorResponse],
    range: xsd.string,
  },
  {
    iri: mld.latencyMs,
    kind: 'datatype',
    label: 'latency (ms)',
    comment:
      'Milliseconds from the capture of the request to the capture of this response or error response (both records must carry a time).',
    domain: [jrpc.Response, jrpc.ErrorResponse],
    range: xsd.decimal,
  },
  {
    iri: mld.cancels,
    kind: 'object',
    label: 'cancels',
    comment:
      'The request a notifications/cancelled names by its requestId (same session, same direction, not yet answered).',
    domain: [mcpClass('CancelledNotification')],
    range: jrpc.Request,
  },
  {
    iri: mld.progressOf,
    kind: 'object',
    label: 'progress of',
    comment:
      'The request a notifications/progress reports on: the one in flight whose params._meta.progressToken is its token (same session, opposite direction).',
    domain: [mcpClass('ProgressNotification')],
    range: jrpc.Request,
  },
  {
    iri: mld.extensionKey,
    kind: 'object',
    label: 'extension key',
    comment:
      'A predicate of the extension namespace (mldx:, a key the schema does not know) used anywhere in the message: in its envelope, params, result or error, at any depth. Its value is the IRI of that predicate (an rdf:Property; no range is stated, as OWL 2 DL does not allow rdf:Property as a class).',
    domain: anyMessage,
  },
  {
    iri: mld.extensionKeyUse,
    kind: 'object',
    label: 'extension key use',
    comment:
      'How the message uses one of its extension keys (mld:extensionKey): one node per key, with the key and the number of its occurrences in the message.',
    domain: anyMessage,
    range: mld.ExtensionKeyUse,
  },
  {
    iri: mld.usedKey,
    kind: 'object',
    label: 'used key',
    comment:
      'The predicate of the extension namespace (mldx:) whose uses in one message this node counts (an rdf:Property; no range is stated, as OWL 2 DL does not allow rdf:Property as a class).',
    domain: [mld.ExtensionKeyUse],
  },
  {
    iri: mld.occurrences,
    kind: 'datatype',
    label: 'occurrences',
    comment:
      'How many times the key occurs in the message: the number of its JSON objects (the message itself, its params, result or error, and every object below them) that have the key.',
    domain: [mld.ExtensionKeyUse],
    range: xsd.integer,
  },
  {
    iri: mld.tool,
    kind: 'object',
    label: 'tool',
    comment: 'The tool a tools/call request calls.',
    domain: referencing('tool'),
    range: entityClasses.tool,
  },
  {
    iri: mld.prompt,
    kind: 'object',
    label: 'prompt',
    comment: 'The prompt a prompts/get request asks for.',
    domain: referencing('prompt'),
    range: entityClasses.prompt,
  },
  {
    iri: mld.resource,
    kind: 'object',
    label: 'resource',
    comment: 'The resource a message is about: read, subscribed to, unsubscribed from, or updated.',
    domain: referencing('resource'),
    range: entityClasses.resource,
  },
  {
    iri: mld.describes,
    kind: 'object',
    label: 'describes',
    comment:
      'Links an item of a list result (a tool, prompt or resource description, or the contents of a read resource) to the entity it describes (see src/rdf/entities.ts).',
    domain: ['Tool', 'Prompt', 'Resource', 'TextResourceContents', 'BlobResourceContents'].map(mcpClass),
    range: [mld.Tool, mld.Prompt, mld.Resource],
  },
  {
    iri: mld.argument,
    kind: 'object',
    label: 'argument',
    comment: 'One argument (name and value) of the arguments object (mcp:hasArguments) of the same node.',
    domain: [],
    domainOf: `${ns.mcp}hasArguments`,
    range: mld.Argument,
  },
  {
    iri: mld.argumentName,
    kind: 'datatype',
    label: 'argument name',
    comment: 'The name of an argument.',
    domain: [mld.Argument],
    range: xsd.string,
  },
  {
    iri: mld.argumentValue,
    kind: 'datatype',
    label: 'argument value',
    comment:
      'The value of an argument: a string, number or boolean literal, or an rdf:JSON literal for objects, arrays and null.',
    domain: [mld.Argument],
  },
  {
    iri: mld.rawText,
    kind: 'datatype',
    label: 'raw text',
    comment: 'The text of a raw line; on a message, the wire text when the JSON of the message would not give it back.',
    domain: [mld.RawLine, ...anyMessage],
    range: xsd.string,
  },
  {
    iri: mld.rawBytes,
    kind: 'datatype',
    label: 'raw bytes',
    comment: 'The bytes of a raw line that are not UTF-8 (so no text can hold them), in base64.',
    domain: [mld.RawLine],
    range: xsd.base64Binary,
  },
  {
    iri: mld.operation,
    kind: 'object',
    label: 'operation',
    comment: 'The multi-round operation a request, its InputRequiredResult answers and its final response belong to.',
    domain: anyMessage,
    range: mld.Operation,
  },
  {
    iri: mld.attempt,
    kind: 'datatype',
    label: 'attempt',
    comment: 'Which request of its operation a request is, from 1 (the first request; each retry adds one).',
    domain: [jrpc.Request],
    range: xsd.integer,
  },
  {
    iri: mld.attempts,
    kind: 'datatype',
    label: 'attempts',
    comment: 'How many requests an operation took, once it has ended (an operation the client gave up on has none).',
    domain: [mld.Operation],
    range: xsd.integer,
  },
  {
    iri: mld.rounds,
    kind: 'datatype',
    label: 'rounds',
    comment:
      'How many times the server asked for input (InputRequiredResults) before an operation ended: its attempts less one.',
    domain: [mld.Operation],
    range: xsd.integer,
  },
  {
    iri: mld.outcome,
    kind: 'datatype',
    label: 'outcome',
    comment:
      'How an operation ended: "complete" (a result), "tool-error" (a result with isError true) or "error" (a JSON-RPC error response).',
    domain: [mld.Operation],
    range: xsd.string,
  },
  {
    iri: mld.totalLatencyMs,
    kind: 'datatype',
    label: 'total latency (ms)',
    comment: "Milliseconds from the capture of an operation's first request to the capture of its final response.",
    domain: [mld.Operation],
    range: xsd.decimal,
  },
  {
    iri: mld.finalResponse,
    kind: 'object',
    label: 'final response',
    comment: 'The response that ended an operation (a result that asks for no more input, or an error).',
    domain: [mld.Operation],
    range: jrpc.Response,
  },
  {
    iri: mld.answersInputRequired,
    kind: 'object',
    label: 'answers input required',
    comment:
      'The InputRequiredResult a retry answers: same method and target, inputResponses for its inputRequests keys, its requestState echoed.',
    domain: [jrpc.Request],
    range: jrpc.Response,
  },
  {
    iri: mld.inputRequest,
    kind: 'object',
    label: 'input request',
    comment: "One input request of an InputRequiredResult's result node.",
    domain: [mcpClass('InputRequiredResult')],
    range: mld.InputRequest,
  },
  {
    iri: mld.inputResponse,
    kind: 'object',
    label: 'input response',
    comment: "One input response of a retry's params node.",
    domain: [],
    range: mld.InputResponse,
  },
  {
    iri: mld.inputKey,
    kind: 'datatype',
    label: 'input key',
    comment: 'The key (chosen by the server) of an input request, and of the input response that answers it.',
    domain: [mld.InputRequest, mld.InputResponse],
    range: xsd.string,
  },
  {
    iri: mld.respondsToInput,
    kind: 'object',
    label: 'responds to input',
    comment: 'The input request an input response answers.',
    domain: [mld.InputResponse],
    range: mld.InputRequest,
  },
  {
    iri: mld.taskRequest,
    kind: 'object',
    label: 'task request',
    comment:
      'The task-augmented request (tools/call) whose task a message is about: tasks/get, tasks/result, tasks/update, tasks/cancel and task status notifications, by the task id its CreateTaskResult gave.',
    domain: [jrpc.Request, jrpc.Notification, jrpc.Response],
    range: jrpc.Request,
  },
  {
    iri: mld.taskResult,
    kind: 'object',
    label: 'task result',
    comment:
      "A completed task's result, lifted by the result definition of the request the task runs (the task state keeps it as rdf:JSON too, so lowering is exact).",
    domain: [`${ns.mcp}CompletedTask`],
  },
  {
    iri: mld.subscription,
    kind: 'object',
    label: 'subscription',
    comment:
      'The subscriptions/listen request a notification belongs to (its _meta io.modelcontextprotocol/subscriptionId).',
    domain: [jrpc.Notification],
    range: mld.Subscription,
  },
  {
    iri: mld.traceId,
    kind: 'datatype',
    label: 'trace id',
    comment:
      "The OpenTelemetry trace id of the W3C traceparent in the message's _meta (32 hex digits), to join with traces.",
    domain: anyMessage,
    range: xsd.string,
  },
  {
    iri: mld.spanId,
    kind: 'datatype',
    label: 'span id',
    comment: "The OpenTelemetry parent span id of the W3C traceparent in the message's _meta (16 hex digits).",
    domain: anyMessage,
    range: xsd.string,
  },
  {
    iri: mld.inputSchema,
    kind: 'object',
    label: 'input schema (as data)',
    comment: 'The inputSchema of a tool description (kept whole by mcp:hasInputSchema as rdf:JSON) as a schema node.',
    domain: [],
    domainOf: `${ns.mcp}hasInputSchema`,
    range: mld.Schema,
  },
  {
    iri: mld.outputSchema,
    kind: 'object',
    label: 'output schema (as data)',
    comment: 'The outputSchema of a tool description (kept whole by mcp:hasOutputSchema as rdf:JSON) as a schema node.',
    domain: [],
    domainOf: `${ns.mcp}hasOutputSchema`,
    range: mld.Schema,
  },
  {
    iri: mld.requestedSchema,
    kind: 'object',
    label: 'requested schema (as data)',
    comment:
      'The requestedSchema of an elicitation request (kept whole by mcp:hasRequestedSchema as rdf:JSON) as a schema node; also from the params node of an elicitation/create embedded in the inputRequests of a 2026-07-28 input_required result (named by its JSON path below that result).',
    domain: [],
    domainOf: `${ns.mcp}hasRequestedSchema`,
    range: mld.Schema,
  },
  {
    iri: mld.inputParameter,
    kind: 'object',
    label: 'input parameter',
    comment:
      "A top-level parameter of a tool's inputSchema. A tool description (mcp:Tool) links to the parameters of its own schema; a tool entity (mld:Tool) to those of every tools/list description of it, so that tools are found by parameter across sessions.",
    domain: [mcpClass('Tool'), mld.Tool],
    range: mld.Parameter,
  },
  {
    iri: mld.outputParameter,
    kind: 'object',
    label: 'output parameter',
    comment:
      "A top-level parameter (property) of a tool's outputSchema; from tool descriptions and tool entities, as mld:inputParameter.",
    domain: [mcpClass('Tool'), mld.Tool],
    range: mld.Parameter,
  },
  {
    iri: mld.requestedParameter,
    kind: 'object',
    label: 'requested parameter',
    comment: 'A top-level field (property) of the requestedSchema of an elicitation request (see mld:requestedSchema).',
    domain: [],
    domainOf: `${ns.mcp}hasRequestedSchema`,
    range: mld.Parameter,
  },
  {
    iri: mld.nestedParameter,
    kind: 'object',
    label: 'nested parameter',
    comment: 'An entry of the `properties` of a schema node.',
    domain: [mld.Schema],
    range: mld.Parameter,
  },
  {
    iri: mld.items,
    kind: 'object',
    label: 'items',
    comment: 'The schema of the items of an array schema (its `items`, when that is one schema).',
    domain: [mld.Schema],
    range: mld.Schema,
  },
  {
    iri: mld.parameterName,
    kind: 'datatype',
    label: 'parameter name',
    comment: 'The name of a parameter: its key in the `properties` of its schema.',
    domain: [mld.Parameter],
    range: xsd.string,
  },
  {
    iri: mld.required,
    kind: 'datatype',
    label: 'required',
    comment: 'Whether the `required` of the schema that has the parameter names it.',
    domain: [mld.Parameter],
    range: xsd.boolean,
  },
  {
    iri: mld.jsonType,
    kind: 'datatype',
    label: 'JSON type',
    comment:
      'The `type` of a schema (one literal per type when `type` is an array): object, array, string, number, integer, boolean or null.',
    domain: [mld.Schema],
    range: xsd.string,
  },
  {
    iri: mld.schemaDialect,
    kind: 'datatype',
    label: 'schema dialect',
    comment: 'The `$schema` of a schema: the JSON Schema dialect it is written in.',
    domain: [mld.Schema],
    range: xsd.string,
  },
  ...schemaKeywords([
    [mld.title, 'title', 'title', 'a schema', xsd.string],
    [mld.description, 'description', 'description', 'a schema', xsd.string],
    [mld.format, 'format', 'format', 'a schema (date-time, uri, email, ...)', xsd.string],
    [mld.pattern, 'pattern', 'pattern', 'a string schema (a regular expression)', xsd.string],
    [mld.minimum, 'minimum', 'minimum', 'a number schema', xsd.decimal],
    [mld.maximum, 'maximum', 'maximum', 'a number schema', xsd.decimal],
    [
      mld.exclusiveMinimum,
      'exclusiveMinimum',
      'exclusive minimum',
      'a number schema (a number; a boolean in older dialects)',
    ],
    [
      mld.exclusiveMaximum,
      'exclusiveMaximum',
      'exclusive maximum',
      'a number schema (a number; a boolean in older dialects)',
    ],
    [mld.minLength, 'minLength', 'minimum length', 'a string schema', xsd.integer],
    [mld.maxLength, 'maxLength', 'maximum length', 'a string schema', xsd.integer],
    [mld.minItems, 'minItems', 'minimum items', 'an array schema', xsd.integer],
    [mld.maxItems, 'maxItems', 'maximum items', 'an array schema', xsd.integer],
  ]),
  {
    iri: mld.additionalProperties,
    kind: 'datatype',
    label: 'additional properties',
    comment:
      'The `additionalProperties` of an object schema, when it is a boolean (a schema there stays in the rdf:JSON literal only).',
    domain: [mld.Schema],
    range: xsd.boolean,
  },
  {
    iri: mld.enumValue,
    kind: 'datatype',
    label: 'enum value',
    comment:
      'One value of the `enum` of a schema: a string, number or boolean literal, or rdf:JSON for null, objects and arrays.',
    domain: [mld.Schema],
  },
  {
    iri: mld.constValue,
    kind: 'datatype',
    label: 'const value',
    comment: 'The `const` of a schema: a string, number or boolean literal, or rdf:JSON for null, objects and arrays.',
    domain: [mld.Schema],
  },
  {
    iri: mld.default,
    kind: 'datatype',
    label: 'default',
    comment:
      'The `default` of a schema: a string, number or boolean literal, or rdf:JSON for null, objects and arrays.',
    domain: [mld.Schema],
  },
  {
    iri: mld.structuredMember,
    kind: 'object',
    label: 'structured member',
    comment:
      'One member of the structured content (mcp:hasStructuredContent, kept whole as rdf:JSON) of the same node: a tool result or a tool-result content block.',
    domain: [],
    domainOf: `${ns.mcp}hasStructuredContent`,
    range: mld.Member,
  },
  {
    iri: mld.member,
    kind: 'object',
    label: 'member',
    comment: 'A member of the object or array value of an argument or member.',
    domain: [mld.Argument, mld.Member],
    range: mld.Member,
  },
  {
    iri: mld.memberName,
    kind: 'datatype',
    label: 'member name',
    comment: 'The key of a member of an object.',
    domain: [mld.Member],
    range: xsd.string,
  },
  {
    iri: mld.memberIndex,
    kind: 'datatype',
    label: 'member index',
    comment: 'The position of a member of an array, from 0.',
    domain: [mld.Member],
    range: xsd.integer,
  },
  {
    iri: mld.memberValue,
    kind: 'datatype',
    label: 'member value',
    comment:
      'The value of a member that has no members of its own: a string, number or boolean literal, or rdf:JSON for null, {} and [].',
    domain: [mld.Member],
  },
  {
    iri: mld.validationResult,
    kind: 'object',
    label: 'validation result',
    comment: 'A problem ajv found when validating the message against its definition; a message without one is valid.',
    domain: anyMessage,
    range: mld.ValidationResult,
  },
  {
    iri: mld.instancePath,
    kind: 'datatype',
    label: 'instance path',
    comment: 'The JSON pointer, into the message, of the value that failed validation.',
    domain: [mld.ValidationResult],
    range: xsd.string,
  },
  {
    iri: mld.schemaPath,
    kind: 'datatype',
    label: 'schema path',
    comment: 'Where in the schema the failing keyword is.',
    domain: [mld.ValidationResult],
    range: xsd.string,
  },
  {
    iri: mld.keyword,
    kind: 'datatype',
    label: 'keyword',
    comment: 'The JSON Schema keyword that failed (required, type, const, enum, additionalProperties, ...).',
    domain: [mld.ValidationResult],
    range: xsd.string,
  },
  {
    iri: mld.message,
    kind: 'datatype',
    label: 'message',
    comment: 'What failed, in words.',
    domain: [mld.ValidationResult],
    range: xsd.string,
  },
];

/** Schema properties the lifter also writes on its own nodes (entities get the name or URI that keys them). */
export const ownUsesOfSchemaProperties: readonly { iri: string; domain: string[] }[] = [
  { iri: `${ns.mcp}hasName`, domain: [mld.Tool, mld.Prompt] },
  { iri: `${ns.mcp}hasURI`, domain: [mld.Resource] },
];

/** The extension namespace, described as a resource of its own. */
export const extensionNamespace: TermDescription = {
  iri: ns.mldx,
  label: 'mcp-ld extension namespace',
  comment:
    "Keys the schema does not know (newer protocol versions, vendor `_meta` keys, unknown methods' parameters) are kept, " +
    'not dropped: each key becomes the predicate mldx:<key> (as JSON-LD expands it with @vocab when the key has only letters, digits and _.-/; percent-encoded otherwise), its value lifted by the generic rules ' +
    '(objects as nodes, arrays as rdf:List, scalars as xsd:string/xsd:boolean/xsd:integer/xsd:double literals). ' +
    'These predicates are open-ended and not declared one by one.',
};

/** The terms of `mld` that this module describes, to check that none is missing. */
export function undescribedOwnTerms(): string[] {
  const described = new Set([...ownClasses, ...ownIndividuals, ...ownProperties].map((t) => t.iri));
  return Object.values(mld).filter((iri) => !described.has(iri));
}

/**
 * The annotation properties saying in which MCP protocol versions a term of the schemas is defined (the ontology's
 * own: the lifter never writes them). Values are version names (`"2025-06-18"`), which compare as strings.
 */
export const versionAnnotations = {
  firstVersion: `${ns.mld}firstVersion`,
  lastVersion: `${ns.mld}lastVersion`,
  definedIn: `${ns.mld}definedIn`,
} as const;

export const versionAnnotationProperties: readonly TermDescription[] = [
  {
    iri: versionAnnotations.firstVersion,
    label: 'first version',
    comment:
      'The first MCP protocol version whose schema defines the term (a definition, or a key annotated with its IRI).',
  },
  {
    iri: versionAnnotations.lastVersion,
    label: 'last version',
    comment:
      'The last MCP protocol version whose schema defines the term, for a term a later version removed (a term without one is ' +
      'defined in the newest version the ontology covers).',
  },
  {
    iri: versionAnnotations.definedIn,
    label: 'defined in',
    comment:
      'An MCP protocol version whose schema defines the term: one value per version, so that a query can select the terms of one version.',
  },
];
