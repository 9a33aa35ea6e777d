// Whether the lint and the generated message contexts read a schema alike: for every message context, each key's term
// against the annotated property sites the lint's SchemaModel sees for it (same IRI, datatype, container), down
// every scoped context. Takes any SchemaIndex, so that other schema versions can be held to it too.
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { contextDefinitions, messageContext } from '../../src/context/message-contexts.js';
import { SchemaModel, type PropertySite } from '../../src/lint/schema-model.js';
import {
  jsonRpcEnvelope,
  type DocumentId,
  type MessageDefinition,
  type SchemaIndex,
  type SchemaLocation,
} from '../../src/schema/index.js';

interface Disagreement {
  /** The message definition whose context disagrees. */
  message: string;
  /** The key path in that context, e.g. `/params/arguments`. */
  path: string;
  /** The lint's label of the property site, when there is one. */
  site?: string;
  problem: string;
}

/** What a term definition says about its key: IRI, `@type` and `@container`, expanded. */
interface TermReading {
  id: string;
  type?: string;
  container?: string;
}

type Prefixes = Record<string, string>;

function expand(value: string, prefixes: Prefixes): string {
  const colon = value.indexOf(':');
  if (colon <= 0 || value.startsWith('@') || value.slice(colon + 1).startsWith('//')) return value;
  const namespace = prefixes[value.slice(0, colon)];
  return namespace === undefined ? value : namespace + value.slice(colon + 1);
}

function show(reading: TermReading | undefined): string {
  if (reading === undefined) return 'no term';
  return [
    `<${reading.id}>`,
    reading.type && `type ${reading.type}`,
    reading.container && `container ${reading.container}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** The prefixes a context object declares (string values that are not keyword aliases). */
function declaredPrefixes(context: JsonObject): Prefixes {
  const prefixes: Prefixes = {};
  for (const [key, value] of Object.entries(context))
    if (typeof value === 'string' && !value.startsWith('@')) prefixes[key] = value;
  return prefixes;
}

/** The context object a node term scopes its value with (after the reset), if any. */
function scopeOf(definition: JsonValue | undefined): JsonObject | undefined {
  const scoped = isJsonObject(definition) ? definition['@context'] : undefined;
  if (Array.isArray(scoped)) return scoped.find(isJsonObject);
  return isJsonObject(scoped) ? scoped : undefined;
}

function readTerm(definition: JsonValue | undefined, prefixes: Prefixes): TermReading | undefined {
  if (typeof definition === 'string') return { id: expand(definition, prefixes) };
  if (!isJsonObject(definition) || typeof definition['@id'] !== 'string') return undefined;
  const reading: TermReading = { id: expand(definition['@id'], prefixes) };
  if (typeof definition['@type'] === 'string') reading.type = expand(definition['@type'], prefixes);
  if (typeof definition['@container'] === 'string') reading.container = definition['@container'];
  return reading;
}

class Agreement {
  readonly disagreements: Disagreement[] = [];
  /** The property sites some context term was compared with. */
  readonly compared = new Set<PropertySite>();
  readonly model: SchemaModel;

  constructor(private readonly index: SchemaIndex) {
    this.model = new SchemaModel(index.documents);
  }

  /** The term the lint's reading of `site` asks for. */
  private expected(site: PropertySite): TermReading {
    const analysis = this.model.analyse(site);
    const id = analysis.idIri!;
    if (id.startsWith('@')) return { id };
    const reading: TermReading = { id };
    const object = analysis.elementTypes !== 'any' && analysis.elementTypes.has('object');
    if (analysis.typeKind === 'json') reading.type = '@json';
    else if (object) reading.type = '@id';
    else if (analysis.typeIri !== undefined) reading.type = analysis.typeIri;
    if (analysis.typeKind !== 'json' && analysis.container !== undefined) reading.container = analysis.container;
    return reading;
  }

  /**
   * The annotated sites in force for each key of the object at `location`: its own override those of its `$ref`
   * target and `allOf` members (the JSON-LD refinement the contexts make); its alternatives' all apply.
   */
  private sitesInForce(
    location: SchemaLocation,
    exclude?: DocumentId,
    seen: ReadonlySet<string> = new Set(),
  ): Map<string, PropertySite[]> {
    const key = `${location.document}#${location.pointer}`;
    const inForce = new Map<string, PropertySite[]>();
    if (seen.has(key)) return inForce;
    const inner = new Set(seen).add(key);
    const walker = this.model.walker;
    const add = (from: Map<string, PropertySite[]>) => {
      for (const [name, sites] of from) inForce.set(name, [...(inForce.get(name) ?? []), ...sites]);
    };
    const excluded = (part: SchemaLocation) => exclude !== undefined && walker.follow(part).document === exclude;
    const parts = walker.objectParts(location);
    if (parts.ref) add(this.sitesInForce(parts.ref, exclude, inner));
    for (const member of parts.allOf) if (!excluded(member)) add(this.sitesInForce(member, undefined, inner));
    for (const [name, schema] of parts.properties) {
      const site = this.model.site(schema.document, schema.pointer);
      if (site?.id !== undefined) inForce.set(name, [site]);
    }
    for (const alternative of parts.alternatives)
      if (!excluded(alternative)) add(this.sitesInForce(alternative, undefined, inner));
    return inForce;
  }

  /** Compares the terms of `context` with the sites in force in the object at `location`, then each scoped value. */
  compare(
    message: string,
    path: string,
    location: SchemaLocation,
    context: JsonObject,
    outer: Prefixes,
    options: { exclude?: DocumentId; skip?: string } = {},
    stack: string[] = [],
  ): void {
    const prefixes = { ...outer, ...declaredPrefixes(context) };
    const inForce = this.sitesInForce(location, options.exclude);
    // The context generator joins the scope of a term with the key of the one that opened this scope into this
    // scope (2025-11-25's tool-result `content` inside sampling's `content`: a jsonld.js workaround, see
    // src/context/term-definitions.ts): the sites of that inner object are in force here too.
    const holder = path.slice(path.lastIndexOf('/') + 1);
    for (const site of inForce.get(holder) ?? []) {
      const element = this.model.analyse(site).element;
      if (element === undefined) continue;
      for (const [key, sites] of this.sitesInForce(this.model.walker.follow(element)))
        if (!inForce.has(key)) inForce.set(key, sites);
    }
    for (const [key, sites] of inForce) {
      if (key === options.skip) continue;
      if (key === 'id' && context[key] === null && !path.includes('/')) continue; // unmapped on purpose (src/context/message-contexts.ts)
      const actual = readTerm(context[key], prefixes);
      for (const site of sites) {
        this.compared.add(site);
        const expected = this.expected(site);
        if (show(actual) !== show(expected)) {
          this.disagreements.push({
            message,
            path: `${path}/${key}`,
            site: site.label,
            problem: `the lint reads ${show(expected)}, the context has ${show(actual)}`,
          });
          continue;
        }
        const element = this.model.analyse(site).element;
        const scope = scopeOf(context[key]);
        if (element === undefined || scope === undefined || expected.type !== '@id') continue;
        const target = this.model.walker.follow(element);
        const id = `${target.document}#${target.pointer}`;
        if (!stack.includes(id)) this.compare(message, `${path}/${key}`, target, scope, prefixes, {}, [...stack, id]);
      }
    }
    for (const [key, value] of Object.entries(context)) {
      if (key.startsWith('@') || key === options.skip || (typeof value === 'string' && !value.startsWith('@')))
        continue;
      if (!inForce.has(key))
        this.disagreements.push({
          message,
          path: `${path}/${key}`,
          problem: `the context has ${show(readTerm(value, prefixes))}, the lint sees no annotated property`,
        });
    }
  }

  /** One message context against the lint's sites: a result's envelope, then its `result` scoped to the definition. */
  message(definition: MessageDefinition): void {
    const { name } = definition;
    const context = messageContext(this.index, definition)['@context'] as JsonObject;
    const location = this.index.definition(name);
    if (definition.kind !== 'result') return this.compare(name, '', location, context, {});
    const envelope = jsonRpcEnvelope(this.index.resolver, location);
    if (envelope === undefined) {
      this.disagreements.push({ message: name, path: '', problem: 'a result definition without a JSON-RPC envelope' });
      return;
    }
    this.compare(name, '', envelope, context, {}, { skip: 'result' });
    const envelopeResult = this.sitesInForce(envelope).get('result')?.[0];
    const prefixes = declaredPrefixes(context);
    const result = readTerm(context['result'], prefixes);
    if (envelopeResult === undefined || result?.id !== this.expected(envelopeResult).id || result.type !== '@id') {
      this.disagreements.push({
        message: name,
        path: '/result',
        problem: `the context's result is ${show(result)}, not a node under the envelope's result IRI`,
      });
    }
    const scope = scopeOf(context['result']);
    if (scope !== undefined) this.compare(name, '/result', location, scope, prefixes, { exclude: 'json-rpc' });
  }
}

interface AgreementReport {
  disagreements: Disagreement[];
  /** The annotated property sites of the lint that some message context gives a term to. */
  compared: PropertySite[];
  /** The annotated property sites the lint sees that no message context reaches (nor is below `@json`). */
  unreached: PropertySite[];
}

/** The lint's view of `index` against its generated message contexts. */
export function compareLintWithContexts(index: SchemaIndex): AgreementReport {
  const agreement = new Agreement(index);
  for (const message of contextDefinitions(index)) agreement.message(message);
  const unreached = agreement.model.properties.filter(
    (site) => site.id !== undefined && site.jsonAncestor === undefined && !agreement.compared.has(site),
  );
  return { disagreements: agreement.disagreements, compared: [...agreement.compared], unreached };
}

/**
 * Every place where the lint's view of `index` and its generated message contexts disagree (none, if they read it
 * alike).
 */
export function lintContextDisagreements(index: SchemaIndex): Disagreement[] {
  return compareLintWithContexts(index).disagreements;
}
