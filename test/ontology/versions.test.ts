// The ontology covers every protocol version: it declares every IRI any version's contexts use, says in which
// versions each term of the schemas is defined (and the last one of a removed term), and each version has its shapes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isomorphic } from 'rdf-isomorphic';
import { DataFactory, type Quad } from 'n3';
import { ontologyDir } from '../../src/core/paths.js';
import { buildContexts } from '../../src/context/index.js';
import {
  latestVersion,
  loadSchema,
  protocolVersions,
  seedVersion,
  type ProtocolVersion,
} from '../../src/schema/index.js';
import { ns, rdf } from '../../src/rdf/vocabulary.js';
import {
  prefixes,
  ontologyModel,
  shapesIri,
  toJsonLd,
  toNTriples,
  toRdfXml,
  toTurtle,
  versionAnnotations,
} from '../../src/ontology/index.js';
import { runCli } from '../helpers/run-cli.js';
import {
  contextIris,
  declaredIris,
  objectsOf,
  parseJsonLd,
  parseNTriples,
  parseRdfXmlStrictly,
  parseTurtle,
} from './rdf-helpers.js';

const { namedNode, literal, quad } = DataFactory;
const owl = 'http://www.w3.org/2002/07/owl#';
const mcp = (local: string) => `${ns.mcp}${local}`;

const ontology = (): Quad[] => parseTurtle(readFileSync(path.join(ontologyDir, 'mcp-ld.ttl'), 'utf8'));
const values = (quads: readonly Quad[], subject: string, predicate: string) =>
  objectsOf(quads, subject, predicate)
    .map((t) => t.value)
    .sort();

describe('ontology: every protocol version', () => {
  const quads = ontology();
  const declared = declaredIris(quads);

  for (const version of protocolVersions) {
    it(`declares every IRI the ${version} contexts use (term @ids, and @types other than keywords and XSD datatypes)`, () => {
      const contexts = buildContexts(loadSchema({ protocol: version }));
      assert.ok(contexts.length > 20, `${contexts.length} contexts`);
      const missing = new Map<string, string[]>();
      for (const context of contexts) {
        for (const iri of contextIris(context.document)) {
          if (iri.startsWith(ns.xsd) || declared.has(iri)) continue;
          missing.set(iri, [...(missing.get(iri) ?? []), context.path]);
        }
      }
      assert.deepEqual(
        [...missing.keys()],
        [],
        `undeclared: ${[...missing].map(([iri, files]) => `${iri} (${files.slice(0, 3).join(', ')})`).join('; ')}`,
      );
    });
  }

  it('says of every term of the schemas in which versions it is defined: first, each, and last when removed', () => {
    // What each version's schema model defines, found here independently of the ontology's own bookkeeping.
    const defining = new Map<string, ProtocolVersion[]>();
    for (const version of protocolVersions) {
      const model = ontologyModel(loadSchema({ protocol: version }));
      const iris = new Set([
        ...model.definitions.filter((d) => d.iri.startsWith(ns.mcp)).map((d) => d.iri),
        ...model.objects.flatMap((o) => o.properties.filter((p) => p.annotated).map((p) => p.predicate)),
        ...model.latent.map((l) => l.predicate),
      ]);
      for (const iri of iris) defining.set(iri, [...(defining.get(iri) ?? []), version]);
    }
    assert.ok(defining.size > 300, `${defining.size} terms`);
    for (const [iri, versions] of defining) {
      assert.ok(declared.has(iri), `${iri} is not declared`);
      assert.deepEqual(values(quads, iri, versionAnnotations.definedIn), versions, `${iri} mld:definedIn`);
      assert.deepEqual(values(quads, iri, versionAnnotations.firstVersion), [versions[0]], `${iri} mld:firstVersion`);
      const last = versions[versions.length - 1]!;
      assert.deepEqual(
        values(quads, iri, versionAnnotations.lastVersion),
        last === latestVersion ? [] : [last],
        `${iri} mld:lastVersion`,
      );
    }
  });

  it(`keeps the terms ${latestVersion} removed, with their last version and a comment saying so`, () => {
    const removed = [
      'InitializeRequest',
      'InitializeResult',
      'InitializedNotification',
      'PingRequest',
      'SetLevelRequest',
      'SubscribeRequest',
      'UnsubscribeRequest',
      // tasks in core: the Tasks extension of 2026-07-28 keeps Task, tasks/get, tasks/cancel and their results.
      'ListTasksRequest',
      'GetTaskPayloadRequest',
      'TaskMetadata',
      'hasClientInfo',
      'hasProtocolVersion',
      'hasTaskMetadata',
    ];
    for (const local of removed) {
      assert.ok(declared.has(mcp(local)), `${local} is declared`);
      assert.deepEqual(values(quads, mcp(local), versionAnnotations.lastVersion), ['2025-11-25'], local);
      assert.match(
        objectsOf(quads, mcp(local), `${ns.rdfs}comment`)[0]!.value,
        /: not in MCP 2026-07-28 or later\.$/,
        local,
      );
    }
    assert.deepEqual(values(quads, mcp('InitializeRequest'), versionAnnotations.firstVersion), ['2024-11-05']);
    assert.deepEqual(values(quads, mcp('Task'), versionAnnotations.definedIn), ['2025-11-25', '2026-07-28']);
    assert.deepEqual(values(quads, mcp('UpdateTaskRequest'), versionAnnotations.definedIn), ['2026-07-28']);
    // Removed earlier: 2025-03-26 replaced Annotated by Annotations.
    assert.deepEqual(values(quads, mcp('Annotated'), versionAnnotations.lastVersion), ['2024-11-05']);
    assert.match(
      objectsOf(quads, mcp('Annotated'), `${ns.rdfs}comment`)[0]!.value,
      /Defined in MCP 2024-11-05 only: not in MCP 2025-03-26 or later\.$/,
    );
  });

  it(`declares the classes and properties ${latestVersion} added, from that version, and the terms of every version without a last one`, () => {
    for (const local of [
      'DiscoverRequest',
      'DiscoverResult',
      'SubscriptionsListenRequest',
      'InputRequiredResult',
      'RequestMetaObject',
      'hasCacheScope',
      'hasTtlMs',
    ]) {
      assert.ok(declared.has(mcp(local)), local);
      assert.deepEqual(values(quads, mcp(local), versionAnnotations.definedIn), [latestVersion], local);
      assert.deepEqual(values(quads, mcp(local), versionAnnotations.lastVersion), [], local);
    }
    const clientInfo = mcp('io.modelcontextprotocol/clientInfo');
    assert.ok(
      quads.some(
        (q) =>
          q.subject.value === clientInfo && q.predicate.value === rdf.type && q.object.value === `${owl}ObjectProperty`,
      ),
    );
    assert.deepEqual(values(quads, clientInfo, `${ns.rdfs}range`), [mcp('Implementation')]);
    for (const local of ['CallToolRequest', 'Tool', 'hasName']) {
      assert.deepEqual(values(quads, mcp(local), versionAnnotations.definedIn), [...protocolVersions], local);
      assert.deepEqual(values(quads, mcp(local), versionAnnotations.lastVersion), [], local);
    }
  });

  it("declares the version annotation properties, and gives mcp-ld's own and the JSON-RPC 2.0 terms no versions", () => {
    for (const iri of Object.values(versionAnnotations)) {
      assert.ok(
        quads.some(
          (q) =>
            q.subject.value === iri && q.predicate.value === rdf.type && q.object.value === `${owl}AnnotationProperty`,
        ),
        iri,
      );
      assert.equal(objectsOf(quads, iri, `${ns.rdfs}label`).length, 1, iri);
      assert.equal(objectsOf(quads, iri, `${ns.rdfs}comment`).length, 1, iri);
    }
    for (const iri of [`${ns.mld}Session`, `${ns.mld}inSession`, `${ns.jrpc}InternalError`, `${ns.jrpc}Request`]) {
      assert.deepEqual(values(quads, iri, versionAnnotations.definedIn), [], iri);
    }
    // 2026-07-28 annotates its InternalError definition with jrpc:InternalError: still one label.
    assert.equal(objectsOf(quads, `${ns.jrpc}InternalError`, `${ns.rdfs}label`).length, 1);
  });

  it('merges a term the versions describe differently: the union of their domains and superclasses', () => {
    // mcp:hasContent: on the result of tools/call in every version, on tool result content blocks since 2025-11-25.
    const domain = quads.find(
      (q) => q.subject.value === mcp('hasContent') && q.predicate.value === `${ns.rdfs}domain`,
    )!.object;
    assert.equal(domain.termType, 'BlankNode', 'a union');
    assert.ok(quads.some((q) => q.predicate.value === rdf.first && q.object.value === mcp('ToolResultContent')));
    // mcp:EnumSchema: an object in 2025-06-18, a union (single-select, multi-select, legacy titled) from 2025-11-25.
    assert.ok(values(quads, mcp('LegacyTitledEnumSchema'), `${ns.rdfs}subClassOf`).includes(mcp('EnumSchema')));
    assert.ok(
      values(quads, mcp('UntitledSingleSelectEnumSchema'), `${ns.rdfs}subClassOf`).includes(
        mcp('SingleSelectEnumSchema'),
      ),
    );
  });
});

describe('ontology: the shapes of each protocol version', () => {
  for (const version of protocolVersions) {
    const file = version === seedVersion ? 'mcp-ld-shapes.ttl' : `${version}/mcp-ld-shapes.ttl`;
    it(`\`mcp-ld ontology --shapes --protocol ${version}\` prints ${version}'s shapes, as in ontology/${file}`, async () => {
      const result = await runCli(['ontology', '--shapes', '--protocol', version]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, readFileSync(path.join(ontologyDir, file), 'utf8'));
      const shapes = parseTurtle(result.stdout);
      assert.deepEqual(
        values(shapes, shapesIri, `${owl}versionIRI`).map((iri) => iri.replace(/\/[^/]+$/, '')),
        [`${shapesIri}/${version}`],
      );
      const targets = new Set(
        shapes.filter((q) => q.predicate.value === 'http://www.w3.org/ns/shacl#targetClass').map((q) => q.object.value),
      );
      const model = ontologyModel(loadSchema({ protocol: version }));
      for (const object of model.objects)
        if (object.classIri !== undefined)
          assert.ok(targets.has(object.classIri), `${version}: no shape targets ${object.classIri}`);
      assert.equal(targets.has(mcp('InitializeRequest')), version !== latestVersion);
      assert.equal(targets.has(mcp('DiscoverRequest')), version === latestVersion);
    });
  }

  it('prints a version\'s shapes in every format (RDF/XML with the 2026-07-28 IRIs whose local part holds a "/")', async () => {
    const [xml, turtle, json, nt] = await Promise.all(
      ['rdfxml', 'turtle', 'jsonld', 'ntriples'].map((format) =>
        runCli(['ontology', '--shapes', '--protocol', latestVersion, '--format', format]),
      ),
    );
    for (const result of [xml, turtle, json, nt]) assert.equal(result!.code, 0, result!.stderr);
    const expected = parseTurtle(turtle!.stdout);
    assert.ok(expected.some((q) => q.object.value === mcp('io.modelcontextprotocol/clientInfo')));
    assert.ok(isomorphic(await parseRdfXmlStrictly(xml!.stdout), expected), 'RDF/XML');
    assert.ok(isomorphic(await parseJsonLd(json!.stdout), expected), 'JSON-LD');
    assert.ok(isomorphic(parseNTriples(nt!.stdout), expected), 'N-Triples');
  });

  it('exits 2 on an unknown --protocol, naming the known versions, and on --protocol without --shapes or with --write/--check', async () => {
    const unknown = await runCli(['ontology', '--shapes', '--protocol', '2024-01-01']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /protocol version "2024-01-01" is not one mcp-ld knows; known versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28/,
    );
    assert.match(unknown.stderr, /usage: mcp-ld ontology/);
    assert.equal(unknown.stdout, '');
    for (const args of [
      ['--protocol', '2025-11-25'],
      ['--write', '--protocol', '2025-11-25'],
      ['--check', '--protocol', '2025-11-25'],
    ]) {
      const result = await runCli(['ontology', ...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: mcp-ld ontology/);
      assert.equal(result.stdout, '');
    }
  });
});

describe('ontology: serializing IRIs that have no QName form', () => {
  const unsafe = mcp('io.modelcontextprotocol/clientInfo');
  const graph = [
    quad(namedNode('urn:example:request'), namedNode(unsafe), namedNode('urn:example:implementation')),
    quad(namedNode('urn:example:request'), namedNode(mcp('io.modelcontextprotocol/logLevel')), literal('debug')),
    quad(
      namedNode('urn:example:request'),
      namedNode('https://example.org/x/1st'),
      literal('a local part starting with a digit'),
    ),
    quad(namedNode('urn:example:implementation'), namedNode(rdf.type), namedNode(unsafe)),
    quad(namedNode(unsafe), namedNode(rdf.type), namedNode(`${owl}ObjectProperty`)),
  ];

  it('writes them as predicates and node types in Turtle, N-Triples, JSON-LD and RDF/XML, and each parses back to the graph', async () => {
    const xml = await toRdfXml(graph, prefixes);
    assert.match(xml, /xmlns:mcp1="http:\/\/modelcontextprotocol\.io\/ontology#io\.modelcontextprotocol\/"/);
    assert.match(xml, /<mcp1:clientInfo /);
    assert.doesNotMatch(xml, /urn:x-mcp-ld-rdfxml-namespace/);
    assert.ok(isomorphic(await parseRdfXmlStrictly(xml), graph), 'RDF/XML');
    assert.ok(isomorphic(parseTurtle(await toTurtle(graph, prefixes)), graph), 'Turtle');
    assert.ok(isomorphic(parseNTriples(await toNTriples(graph)), graph), 'N-Triples');
    assert.ok(isomorphic(await parseJsonLd(await toJsonLd(graph, prefixes)), graph), 'JSON-LD');
  });

  it('refuses, in RDF/XML, a predicate that ends in no XML name', async () => {
    await assert.rejects(
      toRdfXml([quad(namedNode('urn:example:a'), namedNode('https://example.org/p/'), literal('x'))], prefixes),
      /does not end in an XML name/,
    );
  });
});
