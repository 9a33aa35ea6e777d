// Validates MCP messages with ajv against their definitions in the effective schema. Requests and notifications
// are validated whole; a result definition describes the `result` object (the schema flattens it beside the
// JSON-RPC envelope), so `result` is validated against the definition's own part and the envelope against #Response.
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { documentUris, type SchemaIndex } from '../schema/index.js';

export interface ValidationProblem {
  /** JSON pointer into the message. */
  instancePath: string;
  /** Where in the schema the failing keyword is. */
  schemaPath: string;
  keyword: string;
  message: string;
}

const resultSuffix = '__result';

/** ajv (draft-07) knows plain-name fragments as `$id: "#Name"`, not `$anchor`: rewrite them in a copy. */
function anchorsAsIds(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(anchorsAsIds);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$anchor' && typeof child === 'string') out['$id'] = `#${child}`;
    else out[key] = anchorsAsIds(child);
  }
  return out;
}

export class MessageValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly schema: SchemaIndex) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const mcp = anchorsAsIds(cloneJson(schema.documents.mcp)) as JsonObject;
    const definitions = mcp['definitions'] as JsonObject;
    // The result part of each result definition (and of the generic Result): its own schema, without the envelope.
    for (const name of [...schema.messages.filter((m) => m.kind === 'result').map((m) => m.name), 'Result']) {
      const target = schema.resolver.follow(schema.definition(name));
      const { allOf: _envelope, ...own } = anchorsAsIds(cloneJson(target.node)) as JsonObject;
      definitions[name + resultSuffix] = own;
    }
    mcp['$id'] = documentUris.mcp;
    const jsonRpc = anchorsAsIds(cloneJson(schema.documents['json-rpc'])) as JsonObject;
    jsonRpc['$id'] = documentUris['json-rpc'];
    this.ajv.addSchema(jsonRpc);
    this.ajv.addSchema(mcp);
  }

  private validator(ref: string): ValidateFunction {
    const cached = this.compiled.get(ref);
    if (cached) return cached;
    const validate = this.ajv.compile({ $ref: ref });
    this.compiled.set(ref, validate);
    return validate;
  }

  private run(ref: string, value: JsonValue, prefix = ''): ValidationProblem[] {
    const validate = this.validator(ref);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error: ErrorObject) => ({
      instancePath: prefix + error.instancePath,
      schemaPath: error.schemaPath,
      keyword: error.keyword,
      message: `${prefix + error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.keyword === 'additionalProperties' ? `: ${String((error.params as { additionalProperty?: string }).additionalProperty)}` : ''}`,
    }));
  }

  /** Problems of a request or notification against its definition. */
  validateMessage(definition: string, msg: JsonObject): ValidationProblem[] {
    return this.run(`${documentUris.mcp}#/definitions/${definition}`, msg);
  }

  /** Problems of a message against the bare JSON-RPC envelope (#Request, #Notification, #Response). */
  validateEnvelope(anchor: 'Request' | 'Notification' | 'Response', msg: JsonObject): ValidationProblem[] {
    return this.run(`${documentUris['json-rpc']}#${anchor}`, msg);
  }

  /** Problems of a response's `result` against the result definition, and of the envelope against #Response. */
  validateResult(definition: string, msg: JsonObject): ValidationProblem[] {
    return [...this.validateEnvelope('Response', msg), ...this.run(`${documentUris.mcp}#/definitions/${definition}${resultSuffix}`, msg['result'] ?? null, '/result')];
  }

  /** Whether `result` fits a result definition. */
  fitsResult(definition: string, result: JsonValue): boolean {
    return this.validator(`${documentUris.mcp}#/definitions/${definition}${resultSuffix}`)(result) === true;
  }
}
