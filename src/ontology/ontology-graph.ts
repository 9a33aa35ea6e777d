// The OWL ontology, as RDF-JS quads: the document (version IRI from the protocol and mcp-ld versions, title,
// description, license); a class for every object definition (label from its name, comment from its description)
// with the subclass axioms the schema states; a datatype for every scalar definition (owl:oneOf for enumerations);
// an object or datatype property for every annotated IRI (domain: the union of the objects that carry it; range:
// from its annotations); the JSON-RPC classes; mcp-ld's own terms; the alignment with the OGC ontologies. Pure.
import type { Quad } from 'n3';
import { protocolVersion } from '../schema/index.js';
import { documentUris } from '../schema/index.js';
import { ns, rdf } from '../lift/vocabulary.js';
import { alignWithReference, type AlignmentStatement } from './alignment.js';
import { Hierarchy, expressionKey, simplifyDataRanges, simplifyUnion, type ClassExpression, type DataRange } from './class-expressions.js';
import type { ObjectModel, PropertyModel, SchemaModel, DefinitionModel } from './definition-model.js';
import { GraphBuilder, type Term } from './graph-builder.js';
import { jsonRpcClasses, jsonRpcIdProperties, type PropertyDescription } from './json-rpc-terms.js';
import { classLabel, propertyLabel } from './labels.js';
import { dcterms, licenseIri, ontologyIri, owl, owlNs, prefixes, rdfList, rdfs, sh, specificationIri, versionIri } from './namespaces.js';
import { extensionNamespace, ownClasses, ownIndividuals, ownProperties, ownUsesOfSchemaProperties, undescribedOwnTerms } from './own-terms.js';

export interface OntologyOptions {
  /** mcp-ld's version (package.json). */
  version: string;
  /** The OGC reference ontologies, parsed: the alignment is derived from them (none given: no alignment). */
  reference?: readonly Quad[];
}

export type RangeSpec = { kind: 'classes'; members: ClassExpression[] } | { kind: 'data'; members: DataRange[] };

export interface PropertySummary {
  kind: 'object' | 'datatype';
  domain: ClassExpression[];
  range?: RangeSpec;
}

/** What the ontology declares, for the alignment and for tests. */
export interface OntologyTerms {
  hierarchy: Hierarchy;
  classes: Set<string>;
  datatypes: Set<string>;
  properties: Map<string, PropertySummary>;
  individuals: Set<string>;
}

export interface GeneratedOntology {
  quads: Quad[];
  terms: OntologyTerms;
  alignment: AlignmentStatement[];
}

interface PropertyUse {
  owner: ObjectModel;
  property: PropertyModel;
}

const thing: ClassExpression = { kind: 'class', iri: `${owlNs}Thing` };

export function buildOntology(model: SchemaModel, options: OntologyOptions): GeneratedOntology {
  const missing = undescribedOwnTerms();
  if (missing.length > 0) throw new Error(`src/ontology/own-terms.ts does not describe: ${missing.join(', ')}`);
  const g = new GraphBuilder('o');
  const terms: OntologyTerms = { hierarchy: new Hierarchy(), classes: new Set(), datatypes: new Set(), properties: new Map(), individuals: new Set() };

  header(g, options.version);
  const definitions = model.definitions;
  // The hierarchy first: domains are simplified with it.
  for (const definition of definitions) {
    for (const sup of definition.superClasses) terms.hierarchy.addSubClass(definition.iri, sup);
    for (const member of definition.members ?? []) terms.hierarchy.addSubClass(member, definition.iri);
  }
  for (const term of [...jsonRpcClasses, ...ownClasses]) for (const sup of term.superClasses ?? []) terms.hierarchy.addSubClass(term.iri, sup);

  for (const definition of definitions) {
    if (definition.kind === 'scalar') writeDatatype(g, definition, terms);
    else writeDefinitionClass(g, definition, terms);
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

  // Properties of the schema (by predicate, from every object that carries them), then the tables.
  const uses = new Map<string, PropertyUse[]>();
  for (const owner of model.objects) {
    for (const property of owner.properties) {
      if (!property.annotated) continue;
      if (!uses.has(property.predicate)) uses.set(property.predicate, []);
      uses.get(property.predicate)!.push({ owner, property });
    }
  }
  for (const predicate of [...uses.keys()].sort()) {
    const extra = ownUsesOfSchemaProperties.filter((u) => u.iri === predicate).flatMap((u) => u.domain);
    const summary = summarise(uses.get(predicate)!, terms.hierarchy, extra);
    terms.properties.set(predicate, summary);
    writeProperty(g, predicate, propertyLabel(predicate), schemaComment(uses.get(predicate)!), summary, false);
  }
  for (const latent of model.latent) {
    const object = latent.kind === 'node' || latent.kind === 'list';
    const summary: PropertySummary = { kind: object ? 'object' : 'datatype', domain: [] };
    const range = latent.kind === 'list' ? rdfList : latent.kind === 'json' ? rdf.JSON : latent.datatype;
    if (range !== undefined) summary.range = object ? { kind: 'classes', members: [{ kind: 'class', iri: range }] } : { kind: 'data', members: [{ kind: 'datatype', iri: range }] };
    terms.properties.set(latent.predicate, summary);
    const comment =
      `Annotated on the JSON key \`${latent.key}\` inside a value that mcp-ld keeps whole as an rdf:JSON literal (${latent.source}): ` +
      'the lifted graph does not contain it; it is declared because the JSON-LD contexts define it.';
    writeProperty(g, latent.predicate, propertyLabel(latent.predicate), comment, summary, false);
  }
  for (const description of [...jsonRpcIdProperties, ...ownProperties]) {
    const summary = describedSummary(description, terms);
    terms.properties.set(description.iri, summary);
    writeProperty(g, description.iri, description.label, description.comment, summary, description.iri.startsWith(ns.mld));
  }

  g.add(extensionNamespace.iri, rdfs.label, g.literal(extensionNamespace.label, { lang: 'en' }));
  g.add(extensionNamespace.iri, rdfs.comment, g.literal(extensionNamespace.comment, { lang: 'en' }));
  g.add(extensionNamespace.iri, rdfs.isDefinedBy, ontologyIri);

  const alignment = options.reference ? alignWithReference(terms, options.reference) : [];
  for (const statement of alignment) g.add(statement.subject, statement.predicate, statement.object);
  return { quads: g.quads, terms, alignment };
}

function header(g: GraphBuilder, version: string): void {
  g.add(ontologyIri, rdf.type, owl.Ontology);
  g.add(ontologyIri, owl.versionIRI, versionIri(ontologyIri, version));
  g.add(ontologyIri, owl.versionInfo, g.literal(`mcp-ld ${version}, MCP ${protocolVersion}`));
  g.add(ontologyIri, dcterms.title, g.literal(`mcp-ld ontology of the Model Context Protocol ${protocolVersion}`, { lang: 'en' }));
  g.add(
    ontologyIri,
    dcterms.description,
    g.literal(
      `The classes and properties of the RDF graph mcp-ld makes of MCP ${protocolVersion} traffic, generated from the annotated MCP ` +
        'schema (with mcp-ld\'s overlay) and the JSON-RPC schema it builds on: every definition, every annotated property, ' +
        'and mcp-ld\'s own terms for sessions, directions, timestamps, entities, argument pairs and validation results. ' +
        'Request and notification parameters hang from the message node (jrpc:hasParameters); a response\'s result object ' +
        'is the node of jrpc:hasResult, which carries the properties of its result definition.',
      { lang: 'en' },
    ),
  );
  g.add(ontologyIri, dcterms.license, licenseIri);
  g.add(ontologyIri, dcterms.source, documentUris.mcp);
  g.add(ontologyIri, dcterms.source, documentUris['json-rpc']);
  g.add(ontologyIri, rdfs.seeAlso, specificationIri);
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

function writeClass(g: GraphBuilder, iri: string, label: string, comment: string | undefined, superClasses: string[], terms: OntologyTerms): void {
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
    parts.push(`The message with method \`${definition.method}\`; its parameters are the node of jrpc:hasParameters.${answer}`);
  } else if (definition.answers !== undefined) {
    const methods = definition.answers.map((a) => `\`${a.method}\``).join(', ');
    parts.push(`The response to ${methods}; the properties of its result object are on the node of jrpc:hasResult.`);
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function curie(iri: string): string {
  for (const [prefix, namespace] of Object.entries(prefixes)) if (iri.startsWith(namespace)) return `${prefix}:${iri.slice(namespace.length)}`;
  return `<${iri}>`;
}

function writeDefinitionClass(g: GraphBuilder, definition: DefinitionModel, terms: OntologyTerms): void {
  writeClass(g, definition.iri, classLabel(definition.name), definitionComment(definition), definition.superClasses, terms);
}

function writeDatatype(g: GraphBuilder, definition: DefinitionModel, terms: OntologyTerms): void {
  g.add(definition.iri, rdf.type, rdfs.Datatype);
  g.add(definition.iri, rdfs.label, g.literal(classLabel(definition.name), { lang: 'en' }));
  if (definition.description !== undefined) g.add(definition.iri, rdfs.comment, g.literal(definition.description.trim(), { lang: 'en' }));
  const xsdOf: Record<string, string> = { string: `${ns.xsd}string`, integer: `${ns.xsd}integer`, number: `${ns.xsd}decimal`, boolean: `${ns.xsd}boolean` };
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
  if (owner.parent !== undefined) return { kind: 'valueOf', property: owner.parent.predicate, subject: domainOf(owner.parent.object) };
  return thing;
}

/** The range one use gives (undefined: unconstrained). */
function rangeOfUse(property: PropertyModel): RangeSpec | undefined {
  if (property.list) return { kind: 'classes', members: [{ kind: 'class', iri: rdfList }] };
  const value = property.value;
  switch (value.kind) {
    case 'json':
      return { kind: 'data', members: [{ kind: 'datatype', iri: rdf.JSON }] };
    case 'literal':
      if (value.in !== undefined && value.datatype === `${ns.xsd}string`) return { kind: 'data', members: [{ kind: 'oneOf', values: value.in.map((f) => f.value).sort() }] };
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
  const object = uses.some(({ property }) => property.list || property.value.kind === 'node' || property.value.kind === 'any');
  const domain = simplifyUnion([...uses.map(({ owner }) => domainOf(owner)), ...extraDomain.map((iri) => ({ kind: 'class' as const, iri }))], hierarchy);
  const summary: PropertySummary = { kind: object ? 'object' : 'datatype', domain };
  const ranges = uses.map(({ property }) => rangeOfUse(property));
  if (ranges.every((r): r is RangeSpec => r !== undefined)) {
    if (ranges.every((r) => r.kind === 'classes')) {
      summary.range = { kind: 'classes', members: simplifyUnion(ranges.flatMap((r) => (r.kind === 'classes' ? r.members : [])), hierarchy) };
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
      ? terms.properties.get(description.domainOf)?.domain ?? []
      : simplifyUnion(description.domain.map((iri) => ({ kind: 'class' as const, iri })), terms.hierarchy);
  const summary: PropertySummary = { kind: description.kind, domain };
  const range = description.range === undefined ? [] : Array.isArray(description.range) ? description.range : [description.range];
  if (range.length > 0) {
    summary.range =
      description.kind === 'object'
        ? { kind: 'classes', members: range.map((iri) => ({ kind: 'class' as const, iri })) }
        : { kind: 'data', members: range.map((iri) => ({ kind: 'datatype' as const, iri })) };
  }
  return summary;
}

/** The comment of a schema property: its description when all uses agree, and the JSON keys it comes from. */
function schemaComment(uses: PropertyUse[]): string {
  const descriptions = [...new Set(uses.map(({ property }) => property.description?.trim()).filter((d): d is string => d !== undefined))];
  const keys = [...new Set(uses.map(({ property }) => property.key))].sort();
  const owners = [...new Set(uses.map(({ owner }) => owner.name))].sort();
  const from = `From the JSON key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `\`${k}\``).join(', ')} of: ${owners.join(', ')}.`;
  return descriptions.length === 1 ? `${descriptions[0]}\n\n${from}` : from;
}

function writeProperty(g: GraphBuilder, iri: string, label: string, comment: string, summary: PropertySummary, own: boolean): void {
  g.add(iri, rdf.type, summary.kind === 'object' ? owl.ObjectProperty : owl.DatatypeProperty);
  g.add(iri, rdfs.label, g.literal(label, { lang: 'en' }));
  g.add(iri, rdfs.comment, g.literal(comment, { lang: 'en' }));
  const domain = summary.domain.filter((d) => expressionKey(d) !== expressionKey(thing));
  if (domain.length > 0 && domain.length === summary.domain.length) g.add(iri, rdfs.domain, classUnion(g, domain));
  if (summary.range !== undefined && summary.range.members.length > 0) {
    g.add(iri, rdfs.range, summary.range.kind === 'classes' ? classUnion(g, summary.range.members) : dataUnion(g, summary.range.members));
  }
  if (own) g.add(iri, rdfs.isDefinedBy, ontologyIri);
}

function classExpression(g: GraphBuilder, expression: ClassExpression): Term {
  if (expression.kind === 'class') return g.iri(expression.iri);
  return g.node((n) => {
    g.add(n, rdf.type, owl.Restriction);
    g.add(n, owl.onProperty, g.node((inverse) => g.add(inverse, owl.inverseOf, expression.property)));
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

