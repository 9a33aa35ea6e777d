// The OWL ontology, as RDF-JS quads, covering every MCP protocol version given (each version's schema model): the
// document (version IRI from the mcp-ld version, title, description, license); a class for every object definition
// of any version (label from its name, comment from its description) with the subclass axioms the schemas state; a
// datatype for every scalar definition (owl:oneOf for enumerations); an object or datatype property for every
// annotated IRI (domain: the union of the objects that carry it in any version; range: from its annotations); the
// JSON-RPC classes; mcp-ld's own terms; the alignment with the OGC ontologies. Every term of the schemas says in
// which versions it is defined (mld:firstVersion, mld:definedIn, and mld:lastVersion once removed). Pure.
// Longer than 400 lines on purpose: one builder of the whole document, whose declarations depend on each other
// (domains and ranges on the classes, the hierarchy, the version terms); names, labels, expressions are modules apart.
import type { Quad } from 'n3';
import { documentUris } from '../schema/index.js';
import { seedVersion, type ProtocolVersion } from '../schema/versions.js';
import { ns, rdf } from '../rdf/index.js';
import { alignWithReference, type AlignmentStatement } from './alignment.js';
import type { OntologyTerms, PropertySummary, RangeSpec } from './ontology-terms.js';
import {
  Hierarchy,
  expressionKey,
  simplifyDataRanges,
  simplifyUnion,
  type ClassExpression,
  type DataRange,
} from './class-expressions.js';
import type { LatentProperty, ObjectModel, PropertyModel, OntologyModel, DefinitionModel } from './definition-model.js';
import { GraphBuilder, type Term } from './graph-builder.js';
import { alignmentTargets, borrowedTerms, type BorrowedTerm } from './borrowed-terms.js';
import { jsonRpcClasses, jsonRpcIdProperties, type PropertyDescription } from './json-rpc-terms.js';
import { classLabel, propertyLabel } from './labels.js';
import {
  curie,
  dcterms,
  licenseIri,
  ontologyIri,
  owl,
  owlNs,
  prefixes,
  rdfs,
  sh,
  specificationIri,
  versionIri,
} from './namespaces.js';
import {
  extensionNamespace,
  listClass,
  ownClasses,
  ownIndividuals,
  ownProperties,
  ownUsesOfSchemaProperties,
  undescribedOwnTerms,
  versionAnnotationProperties,
  versionAnnotations,
} from './own-terms.js';

/** The schema model of one protocol version. */
export interface VersionedModel {
  version: ProtocolVersion;
  model: OntologyModel;
}

interface OntologyOptions {
  /** mcp-ld's version (package.json). */
  version: string;
  /** The OGC reference ontologies, parsed: the alignment is derived from them (none given: no alignment). */
  reference?: readonly Quad[];
}

export type { OntologyTerms, PropertySummary } from './ontology-terms.js';

export interface GeneratedOntology {
  quads: Quad[];
  terms: OntologyTerms;
  alignment: AlignmentStatement[];
}

interface PropertyUse {
  owner: ObjectModel;
  property: PropertyModel;
  version: ProtocolVersion;
}

/** In which of the covered versions each IRI of the schemas is defined (oldest first). */
type VersionTable = Map<string, ProtocolVersion[]>;

const thing: ClassExpression = { kind: 'class', iri: `${owlNs}Thing` };

/**
 * The ontology of the versions given (oldest first; at least one). A term several versions define is one term: its
 * comment is the preferred version's (see preferredVersion); its superclasses, union members, domains and ranges the
 * union of every version's (a domain or range that one version widens is widened, as OWL reads a union).
 */
export function buildOntology(versions: readonly VersionedModel[], options: OntologyOptions): GeneratedOntology {
  if (versions.length === 0) throw new Error('the ontology needs the schema model of at least one protocol version');
  const missing = undescribedOwnTerms();
  if (missing.length > 0) throw new Error(`src/ontology/own-terms.ts does not describe: ${missing.join(', ')}`);
  const g = new GraphBuilder('o');
  const terms: OntologyTerms = {
    hierarchy: new Hierarchy(),
    classes: new Set(),
    datatypes: new Set(),
    properties: new Map(),
    individuals: new Set(),
  };
  const covered = versions.map((v) => v.version);
  // Terms this package describes (the JSON-RPC 2.0 classes, mcp-ld's own) hold for every version, whichever schemas
  // name them.
  const described = new Set(
    [...jsonRpcClasses, ...ownClasses, ...jsonRpcIdProperties, ...ownProperties].map((t) => t.iri),
  );
  const table = versionTable(versions);
  for (const iri of described) table.delete(iri);

  header(g, options.version, covered);
  for (const term of borrowedTerms) writeBorrowed(g, term);
  const definitions = mergeDefinitions(versions);
  // The hierarchy first: domains are simplified with it.
  for (const definition of definitions) {
    for (const sup of definition.superClasses) terms.hierarchy.addSubClass(definition.iri, sup);
    for (const member of definition.members ?? []) terms.hierarchy.addSubClass(member, definition.iri);
  }
  for (const term of [...jsonRpcClasses, ...ownClasses])
    for (const sup of term.superClasses ?? []) terms.hierarchy.addSubClass(term.iri, sup);

  for (const definition of definitions) {
    // A definition annotated with a described term (2026-07-28's InternalError: jrpc:InternalError) adds its axioms
    // only.
    if (described.has(definition.iri))
      for (const sup of definition.superClasses) g.add(definition.iri, rdfs.subClassOf, sup);
    else if (definition.kind === 'scalar') writeDatatype(g, definition, terms, table, covered);
    else writeDefinitionClass(g, definition, terms, table, covered);
  }
  for (const definition of definitions) {
    for (const member of definition.members ?? []) g.add(member, rdfs.subClassOf, definition.iri);
  }
  for (const term of jsonRpcClasses) {
    writeClass(g, term.iri, term.label, term.comment, term.superClasses ?? [], terms);
  }
  for (const term of ownClasses) {
    writeClass(g, term.iri, term.label, term.comment, term.superClasses ?? [], terms);
    g.add(term.iri, rdfs.isDefinedBy, ontologyIri);
  }
  for (const individual of ownIndividuals) {
    g.add(individual.iri, rdf.type, owl.NamedIndividual);
    g.add(individual.iri, rdf.type, individual.type);
    g.add(individual.iri, rdfs.label, g.literal(individual.label, { lang: 'en' }));
    g.add(individual.iri, rdfs.comment, g.literal(individual.comment, { lang: 'en' }));
    g.add(individual.iri, rdfs.isDefinedBy, ontologyIri);
    terms.individuals.add(individual.iri);
  }
  g.add(
    ownClasses.find((c) => c.iri.endsWith('#Direction'))!.iri,
    owl.equivalentClass,
    g.node((n) => {
      g.add(n, rdf.type, owl.Class);
      g.add(n, owl.oneOf, g.list(ownIndividuals.map((i) => i.iri)));
    }),
  );

  // Properties of the schemas (by predicate, from every object of every version that carries them), then the tables.
  const uses = new Map<string, PropertyUse[]>();
  for (const { version, model } of versions) {
    for (const owner of model.objects) {
      for (const property of owner.properties) {
        if (!property.annotated) continue;
        if (!uses.has(property.predicate)) uses.set(property.predicate, []);
        uses.get(property.predicate)!.push({ owner, property, version });
      }
    }
  }
  for (const predicate of [...uses.keys()].sort()) {
    const extra = ownUsesOfSchemaProperties.filter((u) => u.iri === predicate).flatMap((u) => u.domain);
    const summary = summarise(uses.get(predicate)!, terms.hierarchy, extra);
    terms.properties.set(predicate, summary);
    writeProperty(
      g,
      predicate,
      propertyLabel(predicate),
      withRemoval(schemaComment(uses.get(predicate)!), predicate, table, covered),
      summary,
      false,
    );
  }
  for (const latent of mergeLatent(versions, uses)) {
    const object = latent.kind === 'node' || latent.kind === 'list';
    const summary: PropertySummary = { kind: object ? 'object' : 'datatype', domain: [] };
    const range = latent.kind === 'list' ? listClass : latent.kind === 'json' ? rdf.JSON : latent.datatype;
    if (range !== undefined)
      summary.range = object
        ? { kind: 'classes', members: [{ kind: 'class', iri: range }] }
        : { kind: 'data', members: [{ kind: 'datatype', iri: range }] };
    terms.properties.set(latent.predicate, summary);
    const comment =
      `Annotated on the JSON key \`${latent.key}\` inside a value that mcp-ld keeps whole as an rdf:JSON literal (${latent.source}): ` +
      'the lifted graph does not contain it; it is declared because the JSON-LD contexts define it.';
    writeProperty(
      g,
      latent.predicate,
      propertyLabel(latent.predicate),
      withRemoval(comment, latent.predicate, table, covered),
      summary,
      false,
    );
  }
  for (const description of [...jsonRpcIdProperties, ...ownProperties]) {
    const summary = describedSummary(description, terms);
    terms.properties.set(description.iri, summary);
    writeProperty(
      g,
      description.iri,
      description.label,
      description.comment,
      summary,
      description.iri.startsWith(ns.mld),
    );
  }
  for (const property of versionAnnotationProperties) {
    g.add(property.iri, rdf.type, owl.AnnotationProperty);
    g.add(property.iri, rdfs.label, g.literal(property.label, { lang: 'en' }));
    g.add(property.iri, rdfs.comment, g.literal(property.comment, { lang: 'en' }));
    g.add(property.iri, rdfs.range, `${ns.xsd}string`);
    g.add(property.iri, rdfs.isDefinedBy, ontologyIri);
  }

  // The versions of every term of the schemas (after its other statements).
  for (const iri of [...table.keys()].sort()) writeVersions(g, iri, table, covered);

  g.add(extensionNamespace.iri, rdfs.label, g.literal(extensionNamespace.label, { lang: 'en' }));
  g.add(extensionNamespace.iri, rdfs.comment, g.literal(extensionNamespace.comment, { lang: 'en' }));
  g.add(extensionNamespace.iri, rdfs.isDefinedBy, ontologyIri);

  const alignment = options.reference ? alignWithReference(terms, options.reference) : [];
  for (const statement of alignment) g.add(statement.subject, statement.predicate, statement.object);
  for (const target of alignmentTargets(alignment)) writeBorrowed(g, target);
  return { quads: g.quads, terms, alignment };
}

// ---- versions ---------------------------------------------------------------------------------------------

/**
 * The IRIs each version's schema defines: its definitions' classes and datatypes, the JSON-RPC classes, annotated IRIs.
 */
function versionTable(versions: readonly VersionedModel[]): VersionTable {
  const table: VersionTable = new Map();
  const add = (iri: string, version: ProtocolVersion) => {
    const list = table.get(iri) ?? [];
    if (!list.includes(version)) list.push(version);
    table.set(iri, list);
  };
  for (const { version, model } of versions) {
    for (const definition of model.definitions) add(definition.iri, version);
    for (const object of model.objects) {
      if (object.classIri !== undefined) add(object.classIri, version);
      for (const property of object.properties) if (property.annotated) add(property.predicate, version);
    }
    for (const latent of model.latent) add(latent.predicate, version);
  }
  return table;
}

/** mld:firstVersion, mld:definedIn for each version, and mld:lastVersion when the newest covered version lacks it. */
function writeVersions(g: GraphBuilder, iri: string, table: VersionTable, covered: readonly ProtocolVersion[]): void {
  const defined = table.get(iri);
  if (defined === undefined) return;
  g.add(iri, versionAnnotations.firstVersion, g.literal(defined[0]!));
  const last = defined[defined.length - 1]!;
  if (last !== covered[covered.length - 1]) g.add(iri, versionAnnotations.lastVersion, g.literal(last));
  for (const version of defined) g.add(iri, versionAnnotations.definedIn, g.literal(version));
}

/** A comment, and for a term the newest covered version no longer defines, in which versions it is. */
function withRemoval(comment: string, iri: string, table: VersionTable, covered: readonly ProtocolVersion[]): string;
function withRemoval(
  comment: string | undefined,
  iri: string,
  table: VersionTable,
  covered: readonly ProtocolVersion[],
): string | undefined;
function withRemoval(
  comment: string | undefined,
  iri: string,
  table: VersionTable,
  covered: readonly ProtocolVersion[],
): string | undefined {
  const defined = table.get(iri);
  const newest = covered[covered.length - 1]!;
  if (defined === undefined || defined.includes(newest)) return comment;
  const range = defined.length === 1 ? `MCP ${defined[0]} only` : `MCP ${defined[0]} to ${defined[defined.length - 1]}`;
  const next = covered[covered.indexOf(defined[defined.length - 1]!) + 1] ?? newest;
  const note = `Defined in ${range}: not in MCP ${next} or later.`;
  return comment === undefined ? note : `${comment}\n\n${note}`;
}

/**
 * The version whose wording a term several versions define takes: the seed's (2025-06-18, whose annotations every
 * other version's are carried from) when it defines the term, else the newest that does.
 */
function preferredVersion(defined: readonly ProtocolVersion[]): ProtocolVersion {
  return defined.includes(seedVersion) ? seedVersion : defined[defined.length - 1]!;
}

/**
 * One definition per IRI across the versions: the preferred version's (kind, description, method, answer), with
 * every version's superclasses, union members, answered methods and enumerated values.
 */
function mergeDefinitions(versions: readonly VersionedModel[]): DefinitionModel[] {
  const byIri = new Map<string, { version: ProtocolVersion; definition: DefinitionModel }[]>();
  for (const { version, model } of versions) {
    for (const definition of model.definitions)
      byIri.set(definition.iri, [...(byIri.get(definition.iri) ?? []), { version, definition }]);
  }
  const union = <T>(lists: (readonly T[] | undefined)[]): T[] => [...new Set(lists.flatMap((list) => list ?? []))];
  const merged: DefinitionModel[] = [];
  for (const entries of byIri.values()) {
    const preferred = preferredVersion(entries.map((e) => e.version));
    const chosen = entries.find((e) => e.version === preferred)!.definition;
    if (entries.length === 1) {
      merged.push(chosen);
      continue;
    }
    const all = [chosen, ...entries.map((e) => e.definition).filter((d) => d !== chosen)];
    const definition: DefinitionModel = { ...chosen, superClasses: union(all.map((d) => d.superClasses)) };
    const members = union(all.map((d) => d.members));
    if (members.length > 0) definition.members = members;
    if (chosen.kind === 'scalar' && chosen.enum !== undefined) definition.enum = union(all.map((d) => d.enum));
    if (all.some((d) => d.answers !== undefined)) {
      const answers = new Map(all.flatMap((d) => d.answers ?? []).map((a) => [a.method, a]));
      definition.answers = [...answers.values()];
    }
    merged.push(definition);
  }
  return merged.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every version's latent properties no object of any version carries, by predicate (the preferred version's entry). */
function mergeLatent(versions: readonly VersionedModel[], uses: Map<string, PropertyUse[]>): LatentProperty[] {
  const latent = new Map<string, LatentProperty>();
  for (const { version, model } of versions) {
    for (const entry of model.latent)
      if (!uses.has(entry.predicate) && (!latent.has(entry.predicate) || version <= seedVersion))
        latent.set(entry.predicate, entry);
  }
  return [...latent.values()].sort((a, b) => (a.predicate < b.predicate ? -1 : 1));
}

function writeBorrowed(g: GraphBuilder, term: BorrowedTerm): void {
  g.add(term.iri, rdf.type, term.type);
  g.add(term.iri, rdfs.label, g.literal(term.label, { lang: 'en' }));
  g.add(term.iri, rdfs.comment, g.literal(term.comment, { lang: 'en' }));
}

function header(g: GraphBuilder, version: string, covered: readonly ProtocolVersion[]): void {
  const span = covered.length === 1 ? covered[0]! : `${covered[0]} to ${covered[covered.length - 1]}`;
  g.add(ontologyIri, rdf.type, owl.Ontology);
  g.add(ontologyIri, owl.versionIRI, versionIri(ontologyIri, version));
  g.add(ontologyIri, owl.versionInfo, g.literal(`mcp-ld ${version}, MCP ${covered.join(', ')}`));
  g.add(ontologyIri, dcterms.title, g.literal(`mcp-ld ontology of the Model Context Protocol ${span}`, { lang: 'en' }));
  g.add(
    ontologyIri,
    dcterms.description,
    g.literal(
      `The classes and properties of the RDF graph mcp-ld makes of MCP traffic of the protocol versions ${covered.join(', ')}, ` +
        "generated from each version's annotated MCP schema (the 2025-06-18 seed with mcp-ld's overlay, the other versions' " +
        'official schemas with the annotations carried over and their annotation files) and the JSON-RPC schema it builds on: every ' +
        "definition, every annotated property, and mcp-ld's own terms for sessions, directions, timestamps, entities, argument " +
        "pairs and validation results. A term several versions define is one term (one IRI): its comment is the 2025-06-18 schema's " +
        "description when that version defines it (else the newest defining version's), its superclasses, union members, domain " +
        "and range the union of every version's. Each term of the schemas says in " +
        'which versions it is defined: mld:firstVersion, mld:definedIn (one per version) and, for a term a later version removed, ' +
        "mld:lastVersion; terms without them are mcp-ld's own or JSON-RPC 2.0's and hold for every version. " +
        "Request and notification parameters hang from the message node (jrpc:hasParameters); a response's result object " +
        'is the node of jrpc:hasResult, which carries the properties of its result definition.',
      { lang: 'en' },
    ),
  );
  g.add(ontologyIri, dcterms.license, licenseIri);
  g.add(ontologyIri, dcterms.source, documentUris.mcp);
  g.add(ontologyIri, dcterms.source, documentUris['json-rpc']);
  for (const protocol of covered) g.add(ontologyIri, rdfs.seeAlso, specificationIri(protocol));
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    if (![ns.mcp, ns.jrpc, ns.mld, ns.mldx].includes(namespace as never)) continue;
    g.add(
      ontologyIri,
      sh.declare,
      g.node((n) => {
        g.add(n, sh.prefix, g.literal(prefix));
        g.add(n, sh.namespace, g.literal(namespace, `${ns.xsd}anyURI`));
      }),
    );
  }
}

function writeClass(
  g: GraphBuilder,
  iri: string,
  label: string,
  comment: string | undefined,
  superClasses: string[],
  terms: OntologyTerms,
): void {
  g.add(iri, rdf.type, owl.Class);
  g.add(iri, rdfs.label, g.literal(label, { lang: 'en' }));
  if (comment !== undefined) g.add(iri, rdfs.comment, g.literal(comment, { lang: 'en' }));
  for (const sup of superClasses) g.add(iri, rdfs.subClassOf, sup);
  terms.classes.add(iri);
}

/** A definition's comment: its description, and for messages what the graph holds (method, where its data is). */
function definitionComment(definition: DefinitionModel): string | undefined {
  const parts: string[] = [];
  if (definition.description !== undefined) parts.push(definition.description.trim());
  if (definition.method !== undefined) {
    const answer = definition.answeredBy === undefined ? '' : ` It is answered by ${curie(definition.answeredBy)}.`;
    parts.push(
      `The message with method \`${definition.method}\`; its parameters are the node of jrpc:hasParameters.${answer}`,
    );
  } else if (definition.answers !== undefined) {
    const methods = definition.answers.map((a) => `\`${a.method}\``).join(', ');
    parts.push(`The response to ${methods}; the properties of its result object are on the node of jrpc:hasResult.`);
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function writeDefinitionClass(
  g: GraphBuilder,
  definition: DefinitionModel,
  terms: OntologyTerms,
  table: VersionTable,
  covered: readonly ProtocolVersion[],
): void {
  writeClass(
    g,
    definition.iri,
    classLabel(definition.name),
    withRemoval(definitionComment(definition), definition.iri, table, covered),
    definition.superClasses,
    terms,
  );
}

function writeDatatype(
  g: GraphBuilder,
  definition: DefinitionModel,
  terms: OntologyTerms,
  table: VersionTable,
  covered: readonly ProtocolVersion[],
): void {
  g.add(definition.iri, rdf.type, rdfs.Datatype);
  g.add(definition.iri, rdfs.label, g.literal(classLabel(definition.name), { lang: 'en' }));
  const comment = withRemoval(definition.description?.trim(), definition.iri, table, covered);
  if (comment !== undefined) g.add(definition.iri, rdfs.comment, g.literal(comment, { lang: 'en' }));
  const xsdOf: Record<string, string> = {
    string: `${ns.xsd}string`,
    integer: `${ns.xsd}integer`,
    number: `${ns.xsd}decimal`,
    boolean: `${ns.xsd}boolean`,
  };
  let equivalent: Term | undefined;
  if (definition.enum !== undefined) {
    equivalent = g.node((n) => {
      g.add(n, rdf.type, rdfs.Datatype);
      g.add(n, owl.oneOf, g.list(definition.enum!.map((v) => g.literal(v))));
    });
  } else {
    const types = (definition.jsonTypes ?? []).map((t) => xsdOf[t]).filter((t): t is string => t !== undefined);
    if (types.length === 1) equivalent = g.iri(types[0]!);
    else if (types.length > 1) {
      equivalent = g.node((n) => {
        g.add(n, rdf.type, rdfs.Datatype);
        g.add(n, owl.unionOf, g.list(types));
      });
    }
  }
  if (equivalent !== undefined) g.add(definition.iri, owl.equivalentClass, equivalent);
  terms.datatypes.add(definition.iri);
}

// ---- properties -------------------------------------------------------------------------------------------

function domainOf(owner: ObjectModel): ClassExpression {
  if (owner.classIri !== undefined) return { kind: 'class', iri: owner.classIri };
  if (owner.parent !== undefined)
    return { kind: 'valueOf', property: owner.parent.predicate, subject: domainOf(owner.parent.object) };
  return thing;
}

/** The range one use gives (undefined: unconstrained). */
function rangeOfUse(property: PropertyModel): RangeSpec | undefined {
  if (property.list) return { kind: 'classes', members: [{ kind: 'class', iri: listClass }] };
  const value = property.value;
  switch (value.kind) {
    case 'json':
      return { kind: 'data', members: [{ kind: 'datatype', iri: rdf.JSON }] };
    case 'literal':
      if (value.in !== undefined && value.datatype === `${ns.xsd}string`)
        return { kind: 'data', members: [{ kind: 'oneOf', values: value.in.map((f) => f.value).sort() }] };
      return { kind: 'data', members: value.datatypes.map((iri) => ({ kind: 'datatype' as const, iri })) };
    case 'node': {
      const members: ClassExpression[] = [];
      for (const alternative of value.alternatives) {
        const iri = alternative.classes[0] ?? alternative.object?.classIri;
        if (iri === undefined) return undefined;
        members.push({ kind: 'class', iri });
      }
      return { kind: 'classes', members };
    }
    case 'any':
      return undefined;
  }
}

function summarise(uses: PropertyUse[], hierarchy: Hierarchy, extraDomain: string[]): PropertySummary {
  const object = uses.some(
    ({ property }) => property.list || property.value.kind === 'node' || property.value.kind === 'any',
  );
  const domain = simplifyUnion(
    [...uses.map(({ owner }) => domainOf(owner)), ...extraDomain.map((iri) => ({ kind: 'class' as const, iri }))],
    hierarchy,
  );
  const summary: PropertySummary = { kind: object ? 'object' : 'datatype', domain };
  const ranges = uses.map(({ property }) => rangeOfUse(property));
  if (ranges.every((r): r is RangeSpec => r !== undefined)) {
    if (ranges.every((r) => r.kind === 'classes')) {
      summary.range = {
        kind: 'classes',
        members: simplifyUnion(
          ranges.flatMap((r) => (r.kind === 'classes' ? r.members : [])),
          hierarchy,
        ),
      };
    } else if (ranges.every((r) => r.kind === 'data')) {
      // An enumeration only when every use enumerates: one plain use makes the range the plain datatype.
      const data = ranges.flatMap((r) => (r.kind === 'data' ? r.members : []));
      const enumerated = data.length > 0 && data.every((r) => r.kind === 'oneOf');
      const members: DataRange[] = enumerated
        ? [{ kind: 'oneOf', values: [...new Set(data.flatMap((r) => (r.kind === 'oneOf' ? r.values : [])))].sort() }]
        : data.map((r) => (r.kind === 'oneOf' ? { kind: 'datatype', iri: `${ns.xsd}string` } : r));
      summary.range = { kind: 'data', members: simplifyDataRanges(members) };
    }
  }
  return summary;
}

function describedSummary(description: PropertyDescription, terms: OntologyTerms): PropertySummary {
  const domain =
    description.domainOf !== undefined
      ? (terms.properties.get(description.domainOf)?.domain ?? [])
      : simplifyUnion(
          description.domain.map((iri) => ({ kind: 'class' as const, iri })),
          terms.hierarchy,
        );
  const summary: PropertySummary = { kind: description.kind, domain };
  const range =
    description.range === undefined ? [] : Array.isArray(description.range) ? description.range : [description.range];
  if (range.length > 0) {
    summary.range =
      description.kind === 'object'
        ? { kind: 'classes', members: range.map((iri) => ({ kind: 'class' as const, iri })) }
        : { kind: 'data', members: range.map((iri) => ({ kind: 'datatype' as const, iri })) };
  }
  return summary;
}

/**
 * The comment of a schema property: its description when all uses of the preferred version (see preferredVersion)
 * agree, and the JSON keys it comes from in any version.
 */
function schemaComment(uses: PropertyUse[]): string {
  const preferred = preferredVersion([...new Set(uses.map((use) => use.version))].sort());
  const descriptions = [
    ...new Set(
      uses
        .filter((use) => use.version === preferred)
        .map(({ property }) => property.description?.trim())
        .filter((d): d is string => d !== undefined),
    ),
  ];
  const keys = [...new Set(uses.map(({ property }) => property.key))].sort();
  const owners = [...new Set(uses.map(({ owner }) => owner.name))].sort();
  const from = `From the JSON key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `\`${k}\``).join(', ')} of: ${owners.join(', ')}.`;
  return descriptions.length === 1 ? `${descriptions[0]}\n\n${from}` : from;
}

function writeProperty(
  g: GraphBuilder,
  iri: string,
  label: string,
  comment: string,
  summary: PropertySummary,
  own: boolean,
): void {
  g.add(iri, rdf.type, summary.kind === 'object' ? owl.ObjectProperty : owl.DatatypeProperty);
  g.add(iri, rdfs.label, g.literal(label, { lang: 'en' }));
  g.add(iri, rdfs.comment, g.literal(comment, { lang: 'en' }));
  const domain = summary.domain.filter((d) => expressionKey(d) !== expressionKey(thing));
  if (domain.length > 0 && domain.length === summary.domain.length) g.add(iri, rdfs.domain, classUnion(g, domain));
  if (summary.range !== undefined && summary.range.members.length > 0) {
    g.add(
      iri,
      rdfs.range,
      summary.range.kind === 'classes' ? classUnion(g, summary.range.members) : dataUnion(g, summary.range.members),
    );
  }
  if (own) g.add(iri, rdfs.isDefinedBy, ontologyIri);
}

function classExpression(g: GraphBuilder, expression: ClassExpression): Term {
  if (expression.kind === 'class') return g.iri(expression.iri);
  return g.node((n) => {
    g.add(n, rdf.type, owl.Restriction);
    g.add(
      n,
      owl.onProperty,
      g.node((inverse) => g.add(inverse, owl.inverseOf, expression.property)),
    );
    g.add(n, owl.someValuesFrom, classExpression(g, expression.subject));
  });
}

function classUnion(g: GraphBuilder, members: ClassExpression[]): Term {
  if (members.length === 1) return classExpression(g, members[0]!);
  return g.node((n) => {
    g.add(n, rdf.type, owl.Class);
    g.add(n, owl.unionOf, g.list(members.map((m) => classExpression(g, m))));
  });
}

function dataRange(g: GraphBuilder, range: DataRange): Term {
  if (range.kind === 'datatype') return g.iri(range.iri);
  return g.node((n) => {
    g.add(n, rdf.type, rdfs.Datatype);
    g.add(n, owl.oneOf, g.list(range.values.map((v) => g.literal(v))));
  });
}

function dataUnion(g: GraphBuilder, members: DataRange[]): Term {
  if (members.length === 1) return dataRange(g, members[0]!);
  return g.node((n) => {
    g.add(n, rdf.type, rdfs.Datatype);
    g.add(n, owl.unionOf, g.list(members.map((m) => dataRange(g, m))));
  });
}
