// Validates MCP messages with ajv against their definitions in the effective schema. Requests and notifications
// are validated whole; a result definition describes the `result` object (the schema flattens it beside the
// JSON-RPC envelope), so `result` is validated against the definition's own part and the envelope against #Response.
// Compiling the validators costs ~400 ms, so ajv's standalone code for them is generated once per effective schema
// and kept in the cache (core/cache.ts); each validator is loaded when a message first needs it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, ValidateFunction, ErrorObject } from 'ajv';
import { codeVersion, contentKey, readCached, writeCachedDirectory } from '../core/cache.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { packageRoot } from '../core/paths.js';
import { documentUris, schemaCodeVersion, type SchemaIndex } from '../schema/index.js';

let cjsRequire: NodeJS.Require | undefined;
/** CommonJS `require` from this module (ajv, its runtime helpers), made when first needed. */
function requireHere(): NodeJS.Require {
  return (cjsRequire ??= createRequire(import.meta.url));
}

let generatorVersion: string | undefined;
/**
 * What the generated code depends on besides the schema: ajv's version, this module and the schema stage's code
 * (which resolves the definitions). ajv's version is read straight from the package's node_modules when ajv is
 * there (resolving it costs ~2 ms at start-up).
 */
function validatorCodeVersion(): string {
  if (generatorVersion === undefined) {
    const installed = path.join(packageRoot, 'node_modules', 'ajv', 'package.json');
    const ajvPackage = existsSync(installed) ? installed : requireHere().resolve('ajv/package.json');
    const ajvVersion = (JSON.parse(readFileSync(ajvPackage, 'utf8')) as { version: string }).version;
    generatorVersion = contentKey([ajvVersion, codeVersion([fileURLToPath(import.meta.url)]), schemaCodeVersion()]);
  }
  return generatorVersion;
}

export interface ValidationProblem {
  /** JSON pointer into the message. */
  instancePath: string;
  /** Where in the schema the failing keyword is. */
  schemaPath: string;
  keyword: string;
  message: string;
}

const resultSuffix = '__result';

/** The ajv refs of a definition (requests, notifications), of a result definition's own part, of an envelope anchor. */
const definitionRef = (name: string): string => `${documentUris.mcp}#/definitions/${name}`;
const resultRef = (name: string): string => `${definitionRef(name)}${resultSuffix}`;
const anchorRef = (anchor: string): string => `${documentUris['json-rpc']}#${anchor}`;

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

/**
 * How many validators a run loads as separate modules (`v<i>.cjs`, each with just the code it needs). Past that, the
 * rest come from one module holding them all (`all.cjs`), which shares the code they have in common: a run over a
 * few kinds of message loads little, one over many does not compile the shared parts again for each.
 */
const separateModules = 8;

export class MessageValidator {
  /** The definitions messages are validated against, as ajv refs; validator `i` is exported as `v<i>`. */
  private readonly refs: string[];
  /** The cache entry of this schema's validators: a directory of generated CommonJS modules. */
  private readonly cacheName: string;
  private readonly loaded = new Map<string, ValidateFunction>();
  /**
   * The refs of definitions (results apart), of result definitions and of the envelope's anchors, by name, each made
   * once: a ref string built for every message would be hashed again in every lookup of `loaded`.
   */
  private readonly definitionRefs = new Map<string, string>();
  private readonly resultRefs = new Map<string, string>();
  private readonly anchorRefs = new Map<string, string>();
  private readonly modules = new Map<string, Record<string, unknown>>();
  /** The generated modules by file name, when this process had to generate them (the cache missed). */
  private generated: Record<string, string> | undefined;

  constructor(private readonly schema: SchemaIndex) {
    this.refs = [
      ...schema.messages.map((m) => (m.kind === 'result' ? resultRef : definitionRef)(m.name)),
      resultRef('Result'),
      ...['Request', 'Notification', 'Response'].map(anchorRef),
    ];
    const key = contentKey([validatorCodeVersion(), schema.contentKey, JSON.stringify(this.refs)]);
    this.cacheName = `validators-${key.slice(0, 32)}`;
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.loaded.get(ref);
    if (validate === undefined) {
      validate = this.load(ref);
      this.loaded.set(ref, validate);
    }
    return validate;
  }

  /** The validator of `ref`, from its own module or (past `separateModules`) from the one holding them all. */
  private load(ref: string): ValidateFunction {
    const index = this.refs.indexOf(ref);
    if (index < 0) throw new Error(`no validator for ${ref}`);
    const file = this.loaded.size < separateModules ? `v${index}.cjs` : 'all.cjs';
    const validate = this.module(file)[`v${index}`];
    if (typeof validate !== 'function')
      throw new Error(`the generated validators (${file}) lack v${index}, for ${ref}`);
    return validate as ValidateFunction;
  }

  /** The exports of generated module `file`: from the cache, or generated (all modules at once, then cached). */
  private module(file: string): Record<string, unknown> {
    let exports = this.modules.get(file);
    if (exports !== undefined) return exports;
    const cached = this.generated === undefined ? readCached(path.join(this.cacheName, file)) : undefined;
    if (cached !== undefined) {
      try {
        exports = evaluate(cached);
      } catch {
        // a damaged cache file: generate them all
      }
    }
    if (exports === undefined) {
      if (this.generated === undefined) {
        this.generated = generateValidators(this.schema, this.refs);
        writeCachedDirectory(this.cacheName, this.generated);
      }
      exports = evaluate(this.generated[file]!);
    }
    this.modules.set(file, exports);
    return exports;
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
    let ref = this.definitionRefs.get(definition);
    if (ref === undefined) this.definitionRefs.set(definition, (ref = definitionRef(definition)));
    return this.run(ref, msg);
  }

  /** Problems of a message against the bare JSON-RPC envelope (#Request, #Notification, #Response). */
  validateEnvelope(anchor: 'Request' | 'Notification' | 'Response', msg: JsonObject): ValidationProblem[] {
    let ref = this.anchorRefs.get(anchor);
    if (ref === undefined) this.anchorRefs.set(anchor, (ref = anchorRef(anchor)));
    return this.run(ref, msg);
  }

  /** Problems of a response's `result` against the result definition, and of the envelope against #Response. */
  validateResult(definition: string, msg: JsonObject): ValidationProblem[] {
    return [
      ...this.validateEnvelope('Response', msg),
      ...this.run(this.resultRefOf(definition), msg['result'] ?? null, '/result'),
    ];
  }

  /** Whether `result` fits a result definition. */
  fitsResult(definition: string, result: JsonValue): boolean {
    return this.validator(this.resultRefOf(definition))(result) === true;
  }

  private resultRefOf(definition: string): string {
    let ref = this.resultRefs.get(definition);
    if (ref === undefined) this.resultRefs.set(definition, (ref = resultRef(definition)));
    return ref;
  }
}

/**
 * Runs one generated module (CommonJS) and gives its exports. Evaluated here rather than `require`d: the first
 * `require` of a process costs more than a validator's code.
 */
function evaluate(code: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', code)(module, module.exports, (id: string) => requireHere()(id));
  return module.exports;
}

/**
 * ajv's standalone code (CommonJS) for `refs`, by file name: `v<i>.cjs` exports `v<i>` alone, `all.cjs` all of them.
 */
function generateValidators(schema: SchemaIndex, refs: string[]): Record<string, string> {
  const mcp = anchorsAsIds(schema.documents.mcp) as JsonObject;
  const definitions = mcp['definitions'] as JsonObject;
  // The result part of each result definition (and of the generic Result): its own schema, without the envelope.
  for (const name of [...schema.messages.filter((m) => m.kind === 'result').map((m) => m.name), 'Result']) {
    const target = schema.resolver.follow(schema.definition(name));
    const { allOf: _envelope, ...own } = anchorsAsIds(target.node) as JsonObject;
    definitions[name + resultSuffix] = own;
  }
  mcp['$id'] = documentUris.mcp;
  const jsonRpc = anchorsAsIds(schema.documents['json-rpc']) as JsonObject;
  jsonRpc['$id'] = documentUris['json-rpc'];
  // ajv itself loads only here, when the cache misses: with the cache, start-up needs just the generated code.
  const { Ajv: AjvClass } = requireHere()('ajv') as { Ajv: new (options: object) => Ajv };
  // ajv's standalone generator is CommonJS with its function as `default`.
  const standaloneCode = (
    requireHere()('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string }
  ).default;
  const ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: false, code: { source: true } });
  ajv.addSchema(jsonRpc);
  ajv.addSchema(mcp);
  const exported = refs.map((ref, i): [string, string] => [`v${i}`, ref]);
  return {
    ...Object.fromEntries(exported.map(([name, ref]) => [`${name}.cjs`, standaloneCode(ajv, { [name]: ref })])),
    'all.cjs': standaloneCode(ajv, Object.fromEntries(exported)),
  };
}
