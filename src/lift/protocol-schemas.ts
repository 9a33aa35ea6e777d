// What a lifter needs of each protocol version a message may speak: its schema, its lifting plans and its
// validator, made when a message of that version first comes. The version a message speaks is read here too: the
// one its `_meta` declares (2026-07-28), the one `initialize` negotiated (through 2025-11-25), or the default.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { loadSchema, type ProtocolVersion, type SchemaIndex } from '../schema/index.js';
import { MessagePlans } from './message-plans.js';
import { MessageValidator } from './validate.js';
import { unsafeIriCharacters } from '../core/iri.js';
import { McpLdError } from '../core/problem.js';

export interface VersionTools {
  version: ProtocolVersion;
  schema: SchemaIndex;
  plans: MessagePlans;
  validator: MessageValidator | undefined;
}

/** The `_meta` key of 2026-07-28 that carries the version every client message speaks. */
export const protocolVersionKey = 'io.modelcontextprotocol/protocolVersion';

export class ProtocolSchemas {
  private readonly tools = new Map<ProtocolVersion, VersionTools>();
  readonly defaultTools: VersionTools;

  /**
   * `schema` (with `plans`, when already made) is the default version's. A schema the package does not ship (a test's
   * own) is used for every message: there are no other versions to switch to.
   */
  constructor(
    schema: SchemaIndex,
    plans: MessagePlans | undefined,
    private readonly validate: boolean,
  ) {
    this.defaultTools = this.make(schema, plans);
    this.tools.set(schema.version, this.defaultTools);
    this.switches = schema === loadSchema({ protocol: schema.version });
  }

  private readonly switches: boolean;

  private make(schema: SchemaIndex, plans = new MessagePlans(schema)): VersionTools {
    // What the lifter does not mint itself is checked once, so its sinks need not escape.
    const unsafe = plans.compiler.schemaIris().find((iri) => unsafeIriCharacters.test(iri));
    if (unsafe !== undefined)
      throw McpLdError.of('schema.bad-iri', { detail: `"${unsafe}" cannot be written in N-Quads` });
    return {
      version: schema.version,
      schema,
      plans,
      validator: this.validate ? new MessageValidator(schema) : undefined,
    };
  }

  /** The tools of `version` (the default version's when the schema is not the package's own). */
  of(version: ProtocolVersion): VersionTools {
    if (!this.switches) return this.defaultTools;
    let tools = this.tools.get(version);
    if (tools === undefined) {
      tools = this.make(loadSchema({ protocol: version }));
      this.tools.set(version, tools);
    }
    return tools;
  }
}

/** The version a request or notification declares: 2026-07-28's `_meta` key, or what `initialize` asks for. */
export function declaredVersion(method: string | undefined, params: JsonValue | undefined): string | undefined {
  if (!isJsonObject(params)) return undefined;
  const meta = params['_meta'];
  const declared = isJsonObject(meta) ? meta[protocolVersionKey] : undefined;
  if (typeof declared === 'string') return declared;
  return method === 'initialize' && typeof params['protocolVersion'] === 'string'
    ? params['protocolVersion']
    : undefined;
}

/** The version an initialize result settles on. */
export function negotiatedVersion(result: JsonValue | undefined): string | undefined {
  return isJsonObject(result) && typeof (result as JsonObject)['protocolVersion'] === 'string'
    ? (result['protocolVersion'] as string)
    : undefined;
}
