// Validates MCP messages with ajv against their definitions in the effective schema. Requests and notifications
// are validated whole; a result definition describes the `result` object (the schema flattens it beside the
// JSON-RPC envelope), so `result` is validated against the definition's own part and the envelope against #Response.
// Compiling the validators costs ~300 ms at every start, so ajv's standalone code for them is generated once per
// effective schema and kept in dist/.schema-cache (keyed by a hash of the schema and the ajv version).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv, ValidateFunction, ErrorObject } from 'ajv';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { packageRoot } from '../core/paths.js';
import { documentUris, type SchemaIndex } from '../schema/index.js';

const require = createRequire(import.meta.url);
const ajvVersion: string = (require('ajv/package.json') as { version: string }).version;
const cacheDir = path.join(packageRoot, 'dist', '.schema-cache');

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
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly schema: SchemaIndex) {
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
    const refs = [
      ...schema.messages.map((m) => `${documentUris.mcp}#/definitions/${m.name}${m.kind === 'result' ? resultSuffix : ''}`),
      `${documentUris.mcp}#/definitions/Result${resultSuffix}`,
      ...['Request', 'Notification', 'Response'].map((anchor) => `${documentUris['json-rpc']}#${anchor}`),
    ];
    const key = createHash('sha256').update(JSON.stringify([ajvVersion, jsonRpc, mcp, refs])).digest('hex').slice(0, 32);
    const module = loadStandalone(key, jsonRpc, mcp, refs);
    refs.forEach((ref, i) => this.compiled.set(ref, module[`v${i}`] as ValidateFunction));
  }

  private validator(ref: string): ValidateFunction {
    const validate = this.compiled.get(ref);
    if (!validate) throw new Error(`no validator for ${ref}`);
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

/** The standalone validators for `refs`: from the cache when there, else compiled, cached (when possible) and loaded. */
function loadStandalone(key: string, jsonRpc: JsonObject, mcp: JsonObject, refs: string[]): Record<string, unknown> {
  const file = path.join(cacheDir, `validators-${key}.cjs`);
  if (existsSync(file)) {
    try {
      return require(file) as Record<string, unknown>;
    } catch {
      // a damaged cache file: compile again
    }
  }
  // ajv itself loads only here, when the cache misses: with the cache, start-up needs just the generated code.
  const { Ajv: AjvClass } = require('ajv') as { Ajv: new (options: object) => Ajv };
  // ajv's standalone generator is CommonJS with its function as `default`.
  const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string }).default;
  const ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: false, code: { source: true } });
  ajv.addSchema(jsonRpc);
  ajv.addSchema(mcp);
  const code = standaloneCode(ajv, Object.fromEntries(refs.map((ref, i) => [`v${i}`, ref])));
  try {
    mkdirSync(cacheDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
    return require(file) as Record<string, unknown>;
  } catch {
    // a read-only installation: evaluate the code without caching it
    const exports: Record<string, unknown> = {};
    new Function('module', 'exports', 'require', code)({ exports }, exports, require);
    return exports;
  }
}
