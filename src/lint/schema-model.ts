// The annotated schema as the lint sees it: every property schema (where annotations are written), the extra terms
// and prefixes of each document, and what each annotated value is (its JSON types, following $refs, and the kind of
// its annotated type, as the shared schema walker reads them). It reads the documents and judges nothing: the rules do.
// Longer than 400 lines once formatted on purpose: one walk over the documents that fills one model; the walker and
// the rules are modules apart.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import { RefResolver, type DocumentId, type SchemaLocation, type SeedDocuments } from '../schema/index.js';
import { SchemaWalker, definitionNameAt, definitionsKeyword, definitionsOf } from '../schema/walker.js';
import { datatypeFamily, scalarTypes, type DatatypeFamily, type JsonType, type ValueTypes } from './datatypes.js';

/** One entry of a `properties` keyword: the schema of one JSON key, where annotations are written. */
export interface PropertySite {
  document: DocumentId;
  /** JSON pointer of the property schema. */
  pointer: string;
  /** The JSON key it describes. */
  key: string;
  /** Readable path: `ListToolsResult.tools`, `Tool.inputSchema.required`, `json-rpc#IDObject.id`. */
  label: string;
  location: SchemaLocation;
  /** The annotations as written (strings), absent when not written. */
  id?: string;
  type?: string;
  container?: string;
  annotated: boolean;
  /** Pointer of the nearest enclosing property typed `@json` (lexically), when there is one. */
  jsonAncestor?: string;
  /** The top-level definition the property is written in. */
  definition?: string;
}

/** One entry of `x-jsonld-extra-terms`: a term no property declares (a class, or a key the schema has elsewhere). */
export interface ExtraTerm {
  document: DocumentId;
  pointer: string;
  name: string;
  id?: string;
  type?: string;
}

/** One `$ref`, where it is written and whether it sits below a property typed `@json`. */
export interface RefUse {
  document: DocumentId;
  pointer: string;
  /** The definition it points to (`Root`), when it points to a top-level definition. */
  target?: string;
  targetDocument?: DocumentId;
  /** The top-level definition holding the `$ref`; absent at the document root. */
  from?: string;
  /** The readable place of the `$ref` (the property it belongs to). */
  label: string;
  underJson: boolean;
}

/** What an annotated type asks for: `@json`, a node (`@id`), a class of the schema, a datatype, nothing. */
type TypeKind = 'json' | 'id' | 'vocab' | 'class' | 'datatype' | 'none';

/** The JSON shape of a value, from its JSON types (null aside). `mixed`: more than one of object/array/scalar. */
type Shape = 'object' | 'array' | 'scalar' | 'any' | 'mixed';

export interface ValueAnalysis {
  types: ValueTypes;
  shape: Shape;
  /** For an array the items schema, otherwise the value's own schema. */
  element?: SchemaLocation;
  elementTypes: ValueTypes;
  elementShape: Shape;
  /** The annotations with prefixes expanded. */
  idIri?: string;
  typeIri?: string;
  typeKind: TypeKind;
  /** The XSD family of a datatype (undefined for non-XSD datatypes such as `mcp:Cursor`). */
  family?: DatatypeFamily;
  container?: string;
}

const annotationKeys = ['x-jsonld-id', 'x-jsonld-type', 'x-jsonld-container'];
const compositionKeywords = ['allOf', 'anyOf', 'oneOf'];
/** URI schemes without an authority that are read as absolute IRIs, not as `prefix:suffix` compact IRIs. */
const absoluteSchemes = new Set(['http', 'https', 'urn', 'tag', 'mailto', 'did', 'data', 'info', 'file']);
const maxDepth = 24;

export class SchemaModel {
  readonly resolver: RefResolver;
  /** An unresolvable `$ref` is the schema stage's error: here it only constrains nothing. */
  readonly walker: SchemaWalker;
  /** Every property schema of both documents, in document order. */
  readonly properties: PropertySite[] = [];
  readonly extraTerms: ExtraTerm[] = [];
  readonly refs: RefUse[] = [];
  private readonly siteAt = new Map<string, PropertySite>();
  private readonly analyses = new Map<PropertySite, ValueAnalysis>();
  private readonly objectDefinitions = new Map<string, { document: DocumentId; name: string }>();
  private readonly extraClassIris = new Set<string>();

  constructor(readonly documents: SeedDocuments) {
    this.resolver = new RefResolver(documents);
    this.walker = new SchemaWalker(this.resolver, { unresolved: 'skip' });
    for (const document of ['mcp', 'json-rpc'] as DocumentId[]) {
      const root = documents[document];
      this.walk(document, root, '', document === 'mcp' ? '' : 'json-rpc#', undefined, undefined);
      for (const [name, definition] of Object.entries(this.definitions(document))) {
        if (!isJsonObject(definition)) continue;
        const pointer = joinPointer(this.definitionsPointer(document), name);
        this.walk(document, definition, pointer, (document === 'mcp' ? '' : 'json-rpc#') + name, name, undefined);
      }
      this.readExtraTerms(document);
    }
    for (const document of ['mcp', 'json-rpc'] as DocumentId[]) {
      for (const [name, definition] of Object.entries(this.definitions(document))) {
        if (!isJsonObject(definition)) continue;
        const types = this.valueTypes({
          document,
          pointer: joinPointer(this.definitionsPointer(document), name),
          node: definition,
        });
        if (types !== 'any' && types.size === 1 && types.has('object'))
          this.objectDefinitions.set(name, { document, name });
      }
    }
    for (const term of this.extraTerms) {
      const iri = term.id === undefined ? undefined : this.expand(term.id, term.document);
      if (iri !== undefined && term.type === '@id' && /^[A-Z]/.test(localName(iri))) this.extraClassIris.add(iri);
    }
  }

  definitionsPointer(document: DocumentId): string {
    return `/${definitionsKeyword(this.documents[document])}`;
  }

  definitions(document: DocumentId): JsonObject {
    return definitionsOf(this.documents[document]);
  }

  /** Definition names of both documents. */
  get definitionNames(): Set<string> {
    return new Set([...Object.keys(this.definitions('mcp')), ...Object.keys(this.definitions('json-rpc'))]);
  }

  /** The `x-jsonld-prefixes` a document declares. */
  prefixes(document: DocumentId): Record<string, string> {
    const declared = this.documents[document]['x-jsonld-prefixes'];
    const prefixes: Record<string, string> = {};
    if (isJsonObject(declared))
      for (const [name, iri] of Object.entries(declared)) if (typeof iri === 'string') prefixes[name] = iri;
    return prefixes;
  }

  /** The prefix of a compact IRI (`jrpc` of `jrpc:hasParameters`); undefined for keywords and absolute IRIs. */
  compactPrefix(value: string): string | undefined {
    if (value.startsWith('@')) return undefined;
    const match = /^([A-Za-z_][\w.-]*):(.*)$/.exec(value);
    if (!match || match[2]!.startsWith('//') || absoluteSchemes.has(match[1]!.toLowerCase())) return undefined;
    return match[1];
  }

  /**
   * Expands a compact IRI with the prefixes of its own document, else with those of the other document (so that a
   * term with an undeclared prefix still groups with its intended IRI; `undeclared-prefix` reports it).
   */
  expand(value: string, document: DocumentId): string {
    const prefix = this.compactPrefix(value);
    if (prefix === undefined) return value;
    const other: DocumentId = document === 'mcp' ? 'json-rpc' : 'mcp';
    const namespace = this.prefixes(document)[prefix] ?? this.prefixes(other)[prefix];
    return namespace === undefined ? value : namespace + value.slice(prefix.length + 1);
  }

  site(document: DocumentId, pointer: string): PropertySite | undefined {
    return this.siteAt.get(`${document}#${pointer}`);
  }

  /**
   * True when `iri` names a class of the schema: an object definition, or an extra term typed `@id` named like a class.
   */
  isClass(iri: string): boolean {
    return this.objectDefinitions.has(localName(iri)) || this.extraClassIris.has(iri);
  }

  /** The object definition a class IRI is named after (`Root` for `mcp:Root`), if any. */
  classDefinition(iri: string): string | undefined {
    return this.objectDefinitions.get(localName(iri))?.name;
  }

  analyse(site: PropertySite): ValueAnalysis {
    const cached = this.analyses.get(site);
    if (cached) return cached;
    const types = this.valueTypes(site.location);
    const shape = shapeOf(types);
    const element = this.walker.elementOf(site.location, types);
    const elementTypes = element ? this.valueTypes(element) : 'any';
    const typeIri = site.type === undefined ? undefined : this.expand(site.type, site.document);
    const analysis: ValueAnalysis = {
      types,
      shape,
      elementTypes,
      elementShape: shapeOf(elementTypes),
      typeKind: this.typeKind(typeIri),
    };
    if (element) analysis.element = element;
    if (site.id !== undefined) analysis.idIri = this.expand(site.id, site.document);
    if (typeIri !== undefined) analysis.typeIri = typeIri;
    if (site.container !== undefined) analysis.container = site.container;
    const family = typeIri === undefined ? undefined : datatypeFamily(typeIri);
    if (family !== undefined) analysis.family = family;
    this.analyses.set(site, analysis);
    return analysis;
  }

  typeKind(typeIri: string | undefined): TypeKind {
    if (typeIri === undefined) return 'none';
    if (typeIri === '@json') return 'json';
    if (typeIri === '@id') return 'id';
    if (typeIri === '@vocab') return 'vocab';
    if (this.isClass(typeIri)) return 'class';
    return 'datatype';
  }

  /** The JSON types a schema allows, following `$ref`s and unions. */
  valueTypes(location: SchemaLocation): ValueTypes {
    return this.walker.jsonTypes(location);
  }

  /** The items schema of an array schema (following `$ref`s). */
  itemsOf(location: SchemaLocation): SchemaLocation | undefined {
    return this.walker.itemsOf(location);
  }

  /**
   * The properties an object schema has, by key, through `$ref`, `allOf`, `anyOf` and `oneOf` (all alternatives):
   * every property site that can describe a key of the value.
   */
  objectMembers(location: SchemaLocation): Map<string, PropertySite[]> {
    const result = new Map<string, PropertySite[]>();
    for (const [key, schemas] of this.walker.members(location)) {
      const sites = schemas.flatMap((schema) => this.site(schema.document, schema.pointer) ?? []);
      if (sites.length > 0) result.set(key, sites);
    }
    return result;
  }

  /** Names of the definitions a value schema stands for: its `$ref` target and, through unions, their members. */
  referencedDefinitions(location: SchemaLocation, result = new Set<string>(), depth = 0): Set<string> {
    if (depth > maxDepth) return result;
    const target = this.refTarget(location);
    if (target) {
      const name = definitionNameAt(target.pointer);
      if (name !== undefined) result.add(name);
      this.referencedDefinitions(target, result, depth + 1);
    }
    for (const member of this.walker.alternatives(location)) this.referencedDefinitions(member, result, depth + 1);
    return result;
  }

  /** The target of a node's `$ref`, or undefined (also when it cannot be resolved: the schema stage reports that). */
  refTarget(location: SchemaLocation): SchemaLocation | undefined {
    return this.walker.refTarget(location);
  }

  private walk(
    document: DocumentId,
    node: JsonObject,
    pointer: string,
    label: string,
    definition: string | undefined,
    jsonAncestor: string | undefined,
  ): void {
    const ref = node['$ref'];
    if (typeof ref === 'string') this.recordRef(document, pointer, ref, label, definition, jsonAncestor !== undefined);
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        if (!isJsonObject(child)) continue;
        const childPointer = joinPointer(pointer, 'properties', key);
        const childLabel = label === '' || label.endsWith('#') ? `${label}${key}` : `${label}.${key}`;
        const site: PropertySite = {
          document,
          pointer: childPointer,
          key,
          label: childLabel,
          location: { document, pointer: childPointer, node: child },
          annotated: annotationKeys.some((k) => child[k] !== undefined),
        };
        for (const [field, keyword] of [
          ['id', 'x-jsonld-id'],
          ['type', 'x-jsonld-type'],
          ['container', 'x-jsonld-container'],
        ] as const) {
          const value = child[keyword];
          if (value !== undefined) site[field] = typeof value === 'string' ? value : JSON.stringify(value);
        }
        if (jsonAncestor !== undefined) site.jsonAncestor = jsonAncestor;
        if (definition !== undefined) site.definition = definition;
        this.properties.push(site);
        this.siteAt.set(`${document}#${childPointer}`, site);
        this.walk(
          document,
          child,
          childPointer,
          childLabel,
          definition,
          site.type === '@json' ? childPointer : jsonAncestor,
        );
      }
    }
    const items = node['items'];
    if (isJsonObject(items))
      this.walk(document, items, joinPointer(pointer, 'items'), `${label}[]`, definition, jsonAncestor);
    else if (Array.isArray(items))
      this.walkList(document, items, joinPointer(pointer, 'items'), `${label}[]`, definition, jsonAncestor);
    for (const keyword of compositionKeywords) {
      const list = node[keyword];
      if (Array.isArray(list))
        this.walkList(document, list, joinPointer(pointer, keyword), label, definition, jsonAncestor);
    }
    const additional = node['additionalProperties'];
    if (isJsonObject(additional))
      this.walk(
        document,
        additional,
        joinPointer(pointer, 'additionalProperties'),
        `${label}.*`,
        definition,
        jsonAncestor,
      );
    const patterns = node['patternProperties'];
    if (isJsonObject(patterns)) {
      for (const [pattern, schema] of Object.entries(patterns)) {
        if (isJsonObject(schema))
          this.walk(
            document,
            schema,
            joinPointer(pointer, 'patternProperties', pattern),
            `${label}.*`,
            definition,
            jsonAncestor,
          );
      }
    }
  }

  private walkList(
    document: DocumentId,
    list: JsonValue[],
    pointer: string,
    label: string,
    definition: string | undefined,
    jsonAncestor: string | undefined,
  ): void {
    list.forEach((member, index) => {
      if (isJsonObject(member))
        this.walk(document, member, joinPointer(pointer, String(index)), label, definition, jsonAncestor);
    });
  }

  private recordRef(
    document: DocumentId,
    pointer: string,
    ref: string,
    label: string,
    from: string | undefined,
    underJson: boolean,
  ): void {
    const use: RefUse = {
      document,
      pointer,
      label: label === '' || label.endsWith('#') ? '(document root)' : label,
      underJson,
    };
    if (from !== undefined) use.from = from;
    try {
      const target = this.resolver.resolve(ref, document);
      const name = definitionNameAt(target.pointer);
      if (name !== undefined) {
        use.target = name;
        use.targetDocument = target.document;
      }
    } catch {
      // An unresolvable $ref is the schema stage's error; the lint only misses one reference.
    }
    this.refs.push(use);
  }

  private readExtraTerms(document: DocumentId): void {
    const terms = this.documents[document]['x-jsonld-extra-terms'];
    if (!isJsonObject(terms)) return;
    for (const [name, value] of Object.entries(terms)) {
      const term: ExtraTerm = { document, pointer: joinPointer('/x-jsonld-extra-terms', name), name };
      if (typeof value === 'string') term.id = value;
      else if (isJsonObject(value)) {
        if (typeof value['x-jsonld-id'] === 'string') term.id = value['x-jsonld-id'];
        if (typeof value['x-jsonld-type'] === 'string') term.type = value['x-jsonld-type'];
      }
      this.extraTerms.push(term);
    }
  }
}

/** The shape of a value with these JSON types (null aside). */
function shapeOf(types: ValueTypes): Shape {
  if (types === 'any') return 'any';
  const kinds = new Set<Shape>();
  for (const type of types) {
    if (type === 'null') continue;
    kinds.add(type === 'object' ? 'object' : type === 'array' ? 'array' : 'scalar');
  }
  if (kinds.size === 0) return 'scalar';
  return kinds.size === 1 ? [...kinds][0]! : 'mixed';
}

/** The scalar JSON types of a value (null aside). */
export function scalarTypesOf(types: ValueTypes): JsonType[] {
  return types === 'any' ? [] : [...types].filter((type) => scalarTypes.has(type));
}

/** The local name of an IRI: after `#`, else after the last `/`, else after the last `:`. */
export function localName(iri: string): string {
  const hash = iri.lastIndexOf('#');
  if (hash >= 0) return iri.slice(hash + 1);
  const slash = iri.lastIndexOf('/');
  if (slash >= 0) return iri.slice(slash + 1);
  return iri.slice(iri.lastIndexOf(':') + 1);
}
