// The SHACL shapes, as RDF-JS quads, from the JSON Schema constraints of the effective schema: one node shape per
// class (sh:targetClass) and one per inline object (`params`, a result object, a capability object), reached with
// sh:node through the property that holds it. `required` → sh:minCount 1 (and every key has one value: sh:maxCount
// 1); `const`/`enum` → sh:hasValue/sh:in; JSON types → sh:datatype (the datatypes the lifter writes valid values
// with), sh:nodeKind, sh:class; `minimum`/`maximum` → sh:minInclusive/sh:maxInclusive; arrays → mlds:List and a
// constraint on the members (path `p/rdf:rest*/rdf:first`). The shapes check the lifted graph as it is: no
// inference is needed (unions are sh:or of the member classes, not sh:class of the union). Pure.
import type { Quad } from 'n3';
import { seedVersion, type ProtocolVersion } from '../schema/versions.js';
import { ns, rdf, type LiteralForm } from '../rdf/index.js';
import type { Alternative, ObjectModel, PropertyModel, OntologyModel, ValueModel } from './definition-model.js';
import { GraphBuilder, type Subject, type Term } from './graph-builder.js';
import {
  curie,
  dcterms,
  licenseIri,
  ontologyIri,
  owl,
  rdfs,
  sh,
  shapesIri,
  shapesNs,
  versionIri,
} from './namespaces.js';
import { ownShapes, type OwnPropertyShape } from './own-shapes.js';

interface ShapesOptions {
  /** mcp-ld's version (package.json). */
  version: string;
  /** The MCP protocol version the model describes (the seed's, 2025-06-18, by default). */
  protocol?: ProtocolVersion;
}

/** The IRI of the node shape of an object model. */
export function shapeIri(object: ObjectModel | string): string {
  return shapesNs + (typeof object === 'string' ? object : object.name);
}

export const listShape = shapeIri('List');
const listCellShape = shapeIri('ListCell');

type Constraint = [predicate: string, object: Term | string];

export function buildShapes(model: OntologyModel, options: ShapesOptions): Quad[] {
  const g = new GraphBuilder('s');
  header(g, options.version, options.protocol ?? seedVersion);
  const literal = (form: LiteralForm) => g.literal(form.value, form.datatype);

  const writePropertyShape = (
    shape: Subject | string,
    path: Term | string,
    name: string | undefined,
    constraints: Constraint[],
  ): void => {
    g.add(
      shape,
      sh.property,
      g.node((p) => {
        g.add(p, sh.path, path);
        if (name !== undefined) g.add(p, sh.name, g.literal(name));
        for (const [predicate, object] of constraints) g.add(p, predicate, object);
      }),
    );
  };
  const anyOf = (alternatives: Constraint[][]): Constraint[] => {
    if (alternatives.length === 1) return alternatives[0]!;
    return [
      [
        sh.or,
        g.list(alternatives.map((constraints) => g.node((n) => constraints.forEach(([p, o]) => g.add(n, p, o))))),
      ],
    ];
  };
  const alternativeConstraints = (alternative: Alternative): Constraint[] => [
    ...alternative.classes.map((c): Constraint => [sh.class, c]),
    ...(alternative.object !== undefined ? [[sh.node, shapeIri(alternative.object)] as Constraint] : []),
  ];
  /** `required`: sh:hasValue also demands the value be there, so an optional const is an sh:in of one value. */
  const valueConstraints = (value: ValueModel, required = true): Constraint[] => {
    switch (value.kind) {
      case 'json':
        return [[sh.datatype, rdf.JSON]];
      case 'literal': {
        const constraints = anyOf(value.datatypes.map((d): Constraint[] => [[sh.datatype, d]]));
        if (value.hasValue !== undefined)
          constraints.push(
            required ? [sh.hasValue, literal(value.hasValue)] : [sh.in, g.list([literal(value.hasValue)])],
          );
        if (value.in !== undefined) constraints.push([sh.in, g.list(value.in.map(literal))]);
        if (value.minInclusive !== undefined) constraints.push([sh.minInclusive, literal(value.minInclusive)]);
        if (value.maxInclusive !== undefined) constraints.push([sh.maxInclusive, literal(value.maxInclusive)]);
        return constraints;
      }
      case 'node':
        return [[sh.nodeKind, sh.BlankNodeOrIRI], ...anyOf(value.alternatives.map(alternativeConstraints))];
      case 'any':
        return [];
    }
  };
  const writeProperty = (shape: string, property: PropertyModel): void => {
    const counts: Constraint[] = [
      ...(property.required ? [[sh.minCount, g.literal(1, `${ns.xsd}integer`)] as Constraint] : []),
      [sh.maxCount, g.literal(1, `${ns.xsd}integer`)],
    ];
    if (!property.list) {
      writePropertyShape(shape, property.predicate, property.key, [
        ...counts,
        ...valueConstraints(property.value, property.required),
      ]);
      return;
    }
    writePropertyShape(shape, property.predicate, property.key, [...counts, [sh.node, listShape]]);
    const members = valueConstraints(property.value);
    if (members.length > 0) {
      const path = g.list([property.predicate, g.node((n) => g.add(n, sh.zeroOrMorePath, rdf.rest)), rdf.first]);
      writePropertyShape(shape, path, `${property.key}[]`, members);
    }
  };

  for (const object of model.objects) {
    const shape = shapeIri(object);
    g.add(shape, rdf.type, sh.NodeShape);
    if (object.classIri !== undefined) g.add(shape, sh.targetClass, object.classIri);
    else if (object.parent !== undefined) {
      g.add(
        shape,
        rdfs.comment,
        g.literal(
          `The object that is the value of ${curie(object.parent.predicate)} on a node of ${curie(shapeIri(object.parent.object))}.`,
          { lang: 'en' },
        ),
      );
    }
    for (const property of object.properties) writeProperty(shape, property);
  }
  // Unions: a node of the union class is a node of one of its members (useful when the data carries inferred types).
  for (const definition of model.definitions) {
    if (definition.kind !== 'union') continue;
    const shape = shapeIri(definition.name);
    g.add(shape, rdf.type, sh.NodeShape);
    g.add(shape, sh.targetClass, definition.iri);
    for (const [p, o] of anyOf(definition.members!.map((member): Constraint[] => [[sh.class, member]])))
      g.add(shape, p, o);
  }
  writeListShapes(g);
  writeOwnShapes(g, writePropertyShape);
  return g.quads;
}

function header(g: GraphBuilder, version: string, protocol: ProtocolVersion): void {
  g.add(shapesIri, rdf.type, owl.Ontology);
  g.add(shapesIri, owl.versionIRI, versionIri(shapesIri, version, protocol));
  g.add(shapesIri, owl.versionInfo, g.literal(`mcp-ld ${version}, MCP ${protocol}`));
  g.add(
    shapesIri,
    dcterms.title,
    g.literal(`mcp-ld SHACL shapes of the Model Context Protocol ${protocol}`, { lang: 'en' }),
  );
  g.add(
    shapesIri,
    dcterms.description,
    g.literal(
      "SHACL shapes generated from the JSON Schema constraints of the annotated MCP schema (with mcp-ld's overlay), for the graph " +
        'mcp-ld lifts from MCP traffic: validate the lifted graph as it is (no inference needed). A message that the schema accepts ' +
        'conforms; required keys, constants, enumerations, JSON types, bounds and list structure are checked.',
      { lang: 'en' },
    ),
  );
  g.add(shapesIri, dcterms.license, licenseIri);
  g.add(shapesIri, rdfs.seeAlso, ontologyIri);
}

function writeListShapes(g: GraphBuilder): void {
  g.add(listShape, rdf.type, sh.NodeShape);
  g.add(
    listShape,
    rdfs.comment,
    g.literal('A well-formed RDF list: rdf:nil, or cells that each have one rdf:first and one rdf:rest.', {
      lang: 'en',
    }),
  );
  g.add(
    listShape,
    sh.property,
    g.node((p) => {
      g.add(
        p,
        sh.path,
        g.node((path) => g.add(path, sh.zeroOrMorePath, rdf.rest)),
      );
      g.add(p, sh.node, listCellShape);
    }),
  );
  g.add(listCellShape, rdf.type, sh.NodeShape);
  const exactlyOne = (path: string) =>
    g.node((p) => {
      g.add(p, sh.path, path);
      g.add(p, sh.minCount, g.literal(1, `${ns.xsd}integer`));
      g.add(p, sh.maxCount, g.literal(1, `${ns.xsd}integer`));
    });
  const nil = g.node((n) => g.add(n, sh.hasValue, rdf.nil));
  const cell = g.node((n) => {
    g.add(n, sh.property, exactlyOne(rdf.first));
    g.add(n, sh.property, exactlyOne(rdf.rest));
  });
  g.add(listCellShape, sh.or, g.list([nil, cell]));
}

function writeOwnShapes(
  g: GraphBuilder,
  writePropertyShape: (
    shape: Subject | string,
    path: Term | string,
    name: string | undefined,
    constraints: Constraint[],
  ) => void,
): void {
  for (const own of ownShapes) {
    const shape = shapeIri(own.name);
    g.add(shape, rdf.type, sh.NodeShape);
    g.add(shape, rdfs.comment, g.literal(own.comment, { lang: 'en' }));
    for (const target of own.targets) g.add(shape, sh.targetClass, target);
    for (const property of own.properties)
      writePropertyShape(shape, property.path, undefined, ownConstraints(g, property));
  }
}

function ownConstraints(g: GraphBuilder, property: OwnPropertyShape): Constraint[] {
  const constraints: Constraint[] = [];
  if (property.min !== undefined) constraints.push([sh.minCount, g.literal(property.min, `${ns.xsd}integer`)]);
  if (property.max !== undefined) constraints.push([sh.maxCount, g.literal(property.max, `${ns.xsd}integer`)]);
  if (property.datatypes?.length === 1) constraints.push([sh.datatype, property.datatypes[0]!]);
  else if (property.datatypes !== undefined) {
    constraints.push([sh.or, g.list(property.datatypes.map((d) => g.node((n) => g.add(n, sh.datatype, d))))]);
  }
  if (property.class !== undefined) constraints.push([sh.class, property.class]);
  if (property.in !== undefined) constraints.push([sh.in, g.list(property.in)]);
  return constraints;
}
