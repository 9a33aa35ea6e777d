import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { contextsDir, ontologyDir } from '../../src/core/paths.js';
import type { JsonValue } from '../../src/core/json.js';
import { protocolVersion, protocolVersions } from '../../src/schema/index.js';
import { mld, ns, rdf } from '../../src/rdf/vocabulary.js';
import { generateOntology, ontologyIri, projectVersion } from '../../src/ontology/index.js';
import {
  contextIris,
  declaredIris,
  liftCorpus,
  objectsOf,
  ogcCorpus,
  parseTurtle,
  trafficCorpus,
} from './rdf-helpers.js';
import { captureRecords, captures } from '../helpers/corpus.js';

const standard = [ns.rdf, ns.rdfs, ns.xsd, 'http://www.w3.org/2002/07/owl#'];
const isStandard = (iri: string) => standard.some((namespace) => iri.startsWith(namespace));

/** Every IRI a context file uses: term `@id`s and `@type`s (datatypes, classes), expanded with its prefixes. */
function contextFileIris(file: string): Set<string> {
  return contextIris(JSON.parse(readFileSync(file, 'utf8')) as JsonValue);
}

function contextFiles(): string[] {
  return [
    ...readdirSync(contextsDir)
      .filter((f) => f.endsWith('.jsonld'))
      .map((f) => path.join(contextsDir, f)),
    ...readdirSync(path.join(contextsDir, 'messages')).map((f) => path.join(contextsDir, 'messages', f)),
  ];
}

describe('ontology: it declares every IRI mcp-ld uses', () => {
  const quads = parseTurtle(readFileSync(path.join(ontologyDir, 'mcp-ld.ttl'), 'utf8'));
  const declared = declaredIris(quads);

  it('declares every IRI of every generated context (contexts/*.jsonld, contexts/messages/*.jsonld)', () => {
    const files = contextFiles();
    assert.ok(files.length > 40);
    const missing = new Map<string, string[]>();
    for (const file of files) {
      for (const iri of contextFileIris(file)) {
        if (isStandard(iri) || declared.has(iri)) continue;
        missing.set(iri, [...(missing.get(iri) ?? []), path.basename(file)]);
      }
    }
    assert.deepEqual(
      [...missing.keys()],
      [],
      `undeclared: ${[...missing].map(([iri, f]) => `${iri} (${f.slice(0, 3).join(', ')})`).join('; ')}`,
    );
  });

  const captureCorpus = (file: string) => () =>
    liftCorpus(captureRecords(file).map((record) => ({ record, name: `${file} seq ${record.seq}` })));
  for (const [name, corpus] of [
    ['the real capture', trafficCorpus],
    ['the OGC examples', ogcCorpus],
    ...captures.map(({ file, version }) => [`${file} (${version})`, captureCorpus(file)] as const),
  ] as const) {
    it(`declares every predicate, class and datatype the lifter writes on ${name} (instance IRIs and mldx: aside)`, () => {
      const used = new Set<string>();
      for (const q of corpus().store.getQuads(null, null, null, null)) {
        if (!q.predicate.value.startsWith(ns.mldx)) used.add(q.predicate.value);
        if (q.predicate.value === rdf.type) used.add(q.object.value);
        if (q.object.termType === 'Literal') used.add(q.object.datatype.value);
        // mld:extensionKey names mldx: predicates, which are keys of the data, not declared terms.
        if (
          q.object.termType === 'NamedNode' &&
          q.predicate.value !== rdf.type &&
          !q.object.value.startsWith('urn:mcp-ld:') &&
          !q.object.value.startsWith(ns.mldx)
        )
          used.add(q.object.value);
      }
      const missing = [...used].filter((iri) => !isStandard(iri) && !declared.has(iri)).sort();
      assert.deepEqual(missing, []);
    });
  }

  it("declares every term of mcp-ld's own vocabulary, with a label and a comment, and documents mldx:", () => {
    for (const iri of Object.values(mld)) {
      assert.ok(declared.has(iri), `${iri} is not declared`);
      assert.equal(objectsOf(quads, iri, `${ns.rdfs}label`).length, 1, `${iri} has no label`);
      assert.equal(objectsOf(quads, iri, `${ns.rdfs}comment`).length, 1, `${iri} has no comment`);
    }
    assert.match(objectsOf(quads, ns.mldx, `${ns.rdfs}comment`)[0]!.value, /Keys the schema does not know/);
  });

  it("gives every class and property a label, and every definition's class its description", () => {
    for (const iri of declared)
      assert.equal(objectsOf(quads, iri, `${ns.rdfs}label`).length, 1, `${iri} has no single label`);
    assert.match(
      objectsOf(quads, `${ns.mcp}CallToolRequest`, `${ns.rdfs}comment`)[0]!.value,
      /^Used by the client to invoke a tool/,
    );
    assert.equal(objectsOf(quads, `${ns.mcp}CallToolRequest`, `${ns.rdfs}label`)[0]!.value, 'Call tool request');
  });

  it('is versioned by the project version (it covers every MCP protocol version it knows), and licensed Apache-2.0', () => {
    const { ontology } = generateOntology();
    const version = ontology.quads.find(
      (q) => q.subject.value === ontologyIri && q.predicate.value.endsWith('#versionIRI'),
    )!.object.value;
    assert.equal(version, `${ontologyIri}/${projectVersion()}`);
    const info = ontology.quads.find(
      (q) => q.subject.value === ontologyIri && q.predicate.value.endsWith('#versionInfo'),
    )!.object.value;
    assert.equal(info, `mcp-ld ${projectVersion()}, MCP ${protocolVersions.join(', ')}`);
    const specifications = objectsOf(ontology.quads, ontologyIri, `${ns.rdfs}seeAlso`).map((t) => t.value);
    assert.deepEqual(
      specifications,
      protocolVersions.map((v) => `https://modelcontextprotocol.io/specification/${v}`),
    );
    assert.equal(protocolVersion, '2025-06-18');
    assert.ok(
      ontology.quads.some(
        (q) =>
          q.subject.value === ontologyIri &&
          q.predicate.value === 'http://purl.org/dc/terms/license' &&
          q.object.value === 'https://www.apache.org/licenses/LICENSE-2.0',
      ),
    );
    for (const predicate of ['title', 'description']) {
      assert.ok(
        ontology.quads.some(
          (q) => q.subject.value === ontologyIri && q.predicate.value === `http://purl.org/dc/terms/${predicate}`,
        ),
        predicate,
      );
    }
  });
});

describe('ontology: axioms derived from the schema', () => {
  const { ontology } = generateOntology();
  const { terms } = ontology;
  const sub = (a: string, b: string) =>
    terms.hierarchy.isSubClassOf(`${ns.mcp}${a}`, b.includes(':') ? b : `${ns.mcp}${b}`);

  it('puts requests, notifications and results under the JSON-RPC classes and the generic MCP bases', () => {
    assert.ok(sub('CallToolRequest', `${ns.jrpc}Request`) && sub('CallToolRequest', 'Request'));
    assert.ok(sub('ProgressNotification', `${ns.jrpc}Notification`) && sub('ProgressNotification', 'Notification'));
    assert.ok(sub('ListToolsResult', `${ns.jrpc}Response`) && sub('ListToolsResult', 'Result'));
    assert.ok(sub('EmptyResult', 'Result'));
    assert.ok(!sub('Tool', `${ns.jrpc}Request`));
  });

  it('puts the members of every anyOf union under it (content blocks under mcp:ContentBlock)', () => {
    for (const block of ['TextContent', 'ImageContent', 'AudioContent', 'ResourceLink', 'EmbeddedResource'])
      assert.ok(sub(block, 'ContentBlock'), block);
    assert.ok(
      sub('CallToolRequest', 'ClientRequest') &&
        sub('ElicitRequest', 'ServerRequest') &&
        sub('StringSchema', 'PrimitiveSchemaDefinition'),
    );
    assert.ok(terms.hierarchy.isSubClassOf(`${ns.jrpc}Request`, `${ns.mcp}JSONRPCMessage`));
  });

  it('types every annotated IRI as an object or a datatype property, with a range from its annotation', () => {
    const kind = (local: string, namespace: string = ns.mcp) => terms.properties.get(namespace + local);
    assert.equal(kind('hasName')?.kind, 'datatype');
    assert.deepEqual(kind('hasName')?.range, { kind: 'data', members: [{ kind: 'datatype', iri: `${ns.xsd}string` }] });
    assert.equal(kind('hasTool')?.kind, 'object');
    // mld:List, not rdf:List, which OWL 2 DL does not allow as a class.
    assert.deepEqual(kind('hasTool')?.range, { kind: 'classes', members: [{ kind: 'class', iri: `${ns.mld}List` }] });
    assert.deepEqual(kind('hasInputSchema')?.range, { kind: 'data', members: [{ kind: 'datatype', iri: rdf.JSON }] });
    assert.deepEqual(kind('hasClientInfo')?.range, {
      kind: 'classes',
      members: [{ kind: 'class', iri: `${ns.mcp}Implementation` }],
    });
    assert.equal(kind('hasParameters', ns.jrpc)?.kind, 'object');
  });

  it('gives a property the union of the objects that carry it as its domain, naming untyped objects by where they hang', () => {
    const domain = terms.properties.get(`${ns.mcp}hasContent`)!.domain;
    // The result object of a tools/call response, in every version; and, since 2025-11-25, a tool result content block,
    // which sampling's content may be (of a sampling result, of a sampling message; in 2026-07-28 a sampling result
    // is also the object of an input response, typed by its definition).
    const contentOf = (subject: object) => ({ kind: 'valueOf', property: `${ns.mcp}hasMessageContent`, subject });
    assert.deepEqual(domain, [
      { kind: 'valueOf', property: `${ns.jrpc}hasResult`, subject: { kind: 'class', iri: `${ns.mcp}CallToolResult` } },
      { kind: 'class', iri: `${ns.mcp}ToolResultContent` },
      contentOf({
        kind: 'valueOf',
        property: `${ns.jrpc}hasResult`,
        subject: { kind: 'class', iri: `${ns.mcp}CreateMessageResult` },
      }),
      contentOf({ kind: 'class', iri: `${ns.mcp}CreateMessageResult` }),
      contentOf({ kind: 'class', iri: `${ns.mcp}SamplingMessage` }),
    ]);
    const names = terms.properties.get(`${ns.mcp}hasName`)!.domain;
    assert.ok(names.some((d) => d.kind === 'class' && d.iri === `${ns.mcp}Tool`));
    assert.ok(
      names.some((d) => d.kind === 'class' && d.iri === mld.Tool),
      'the lifter names tool entities with mcp:hasName too',
    );
  });

  it('declares the enumerations as datatypes with owl:oneOf (LoggingLevel, Role, includeContext, elicitation action)', () => {
    const oneOf = (subject: string) => {
      const definition = ontology.quads.find(
        (q) => q.subject.value === subject && q.predicate.value.endsWith('#equivalentClass'),
      );
      return (
        definition !== undefined &&
        ontology.quads.some((q) => q.subject.equals(definition.object) && q.predicate.value.endsWith('#oneOf'))
      );
    };
    assert.ok(terms.datatypes.has(`${ns.mcp}LoggingLevel`) && oneOf(`${ns.mcp}LoggingLevel`));
    assert.ok(terms.datatypes.has(`${ns.mcp}Role`) && oneOf(`${ns.mcp}Role`));
    for (const property of ['hasIncludeContext', 'hasAction']) {
      const range = terms.properties.get(`${ns.mcp}${property}`)!.range!;
      assert.equal(range.kind, 'data');
      assert.equal(range.members[0]!.kind, 'oneOf', property);
    }
    assert.deepEqual(terms.properties.get(`${ns.mcp}hasAction`)!.range, {
      kind: 'data',
      members: [{ kind: 'oneOf', values: ['accept', 'cancel', 'decline'] }],
    });
  });
});
