import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isomorphic } from 'rdf-isomorphic';
import type { Quad } from 'n3';
import { ontologyDir } from '../../src/core/paths.js';
import { protocolVersions, seedVersion } from '../../src/schema/index.js';
import { buildOntologyFiles, checkOntology, generateOntology, writeOntology } from '../../src/ontology/index.js';
import { runCli } from '../helpers/run-cli.js';
import {
  declaredIris,
  parseJsonLd,
  parseNTriples,
  parseRdfXmlStrictly,
  parseRdfXmlWithRdflib,
  parseTurtle,
} from './rdf-helpers.js';

const rootFiles = [
  'mcp-ld-shapes.jsonld',
  'mcp-ld-shapes.nt',
  'mcp-ld-shapes.rdf',
  'mcp-ld-shapes.ttl',
  'mcp-ld.jsonld',
  'mcp-ld.nt',
  'mcp-ld.rdf',
  'mcp-ld.ttl',
];
/** The shapes of the versions other than the seed's (whose shapes are the root mcp-ld-shapes.*), in Turtle. */
const versionShapeFiles = protocolVersions.filter((v) => v !== seedVersion).map((v) => `${v}/mcp-ld-shapes.ttl`);
const generatedFiles = [...versionShapeFiles, ...rootFiles];

async function parseFile(file: string): Promise<Quad[]> {
  const text = readFileSync(path.join(ontologyDir, file), 'utf8');
  if (file.endsWith('.ttl')) return parseTurtle(text);
  if (file.endsWith('.nt')) return parseNTriples(text);
  if (file.endsWith('.jsonld')) return parseJsonLd(text);
  return parseRdfXmlStrictly(text);
}

describe('ontology: the files of ontology/ in four serializations', () => {
  for (const document of ['mcp-ld', 'mcp-ld-shapes']) {
    it(`${document}: Turtle, RDF/XML, JSON-LD and N-Triples each parse, to isomorphic graphs equal to the generated one`, async () => {
      const generated = generateOntology();
      const expected = document === 'mcp-ld' ? generated.ontology.quads : generated.shapes;
      const graphs = await Promise.all(
        ['ttl', 'rdf', 'jsonld', 'nt'].map((extension) => parseFile(`${document}.${extension}`)),
      );
      for (const [i, graph] of graphs.entries()) {
        assert.equal(
          graph.length,
          expected.length,
          `${document}.${['ttl', 'rdf', 'jsonld', 'nt'][i]} has ${graph.length} triples, not ${expected.length}`,
        );
        assert.ok(
          isomorphic(graph, expected),
          `${document}.${['ttl', 'rdf', 'jsonld', 'nt'][i]} is not isomorphic to the generated graph`,
        );
      }
    });
  }

  it('the RDF/XML reads the same with rdflib as with an independent strict parser', async () => {
    for (const file of ['mcp-ld.rdf', 'mcp-ld-shapes.rdf']) {
      const text = readFileSync(path.join(ontologyDir, file), 'utf8');
      assert.ok(isomorphic(parseRdfXmlWithRdflib(text), await parseRdfXmlStrictly(text)), file);
    }
  });
});

describe('ontology: the committed ontology/ matches the schema', () => {
  const temporary: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-ontology-'));
    temporary.push(dir);
    return dir;
  };
  after(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('regenerating reproduces ontology/ byte for byte (else run `node bin/mcp-ld ontology --write`)', async () => {
    const files = await buildOntologyFiles();
    assert.deepEqual(
      files.map((f) => f.path),
      generatedFiles,
    );
    const differing = files
      .filter((f) => readFileSync(path.join(ontologyDir, f.path), 'utf8') !== f.text)
      .map((f) => f.path);
    assert.deepEqual(differing, [], `ontology/ has drifted from the schema: ${differing.join(', ')}`);
  });

  it('is deterministic: two generations give the same bytes', async () => {
    const [a, b] = [await buildOntologyFiles(), await buildOntologyFiles()];
    assert.deepEqual(a, b);
  });

  it('`mcp-ld ontology --check` exits 0 on the committed tree', async () => {
    const result = await runCli(['ontology', '--check']);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
  });

  it('`--check` exits 1 naming every changed and missing file, and writes nothing', async () => {
    const dir = tempDir();
    cpSync(ontologyDir, dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp-ld.ttl'), '# edited\n');
    rmSync(path.join(dir, 'mcp-ld-shapes.nt'));
    writeFileSync(path.join(dir, '2025-11-25', 'mcp-ld-shapes.ttl'), '# edited\n');
    rmSync(path.join(dir, '2026-07-28'), { recursive: true });
    writeFileSync(path.join(dir, 'notes.ttl'), '');
    const result = await runCli(['ontology', '--check', '--out', dir]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /mcp-ld\.ttl differs/);
    assert.match(result.stderr, /mcp-ld-shapes\.nt is missing/);
    assert.match(result.stderr, /2025-11-25\/mcp-ld-shapes\.ttl differs/);
    assert.match(result.stderr, /2026-07-28\/mcp-ld-shapes\.ttl is missing/);
    assert.equal(readFileSync(path.join(dir, 'mcp-ld.ttl'), 'utf8'), '# edited\n', '--check writes nothing');
    assert.deepEqual(
      (await checkOntology(dir)).map((d) => `${d.path} ${d.problem}`),
      [
        '2025-11-25/mcp-ld-shapes.ttl differs',
        '2026-07-28/mcp-ld-shapes.ttl missing',
        'mcp-ld-shapes.nt missing',
        'mcp-ld.ttl differs',
      ],
      'only the generated files are checked; README.md and others are left alone',
    );
  });

  it("`mcp-ld ontology --out DIR` writes the eight files and each other version's shapes, one line each, and they pass --check", async () => {
    const dir = tempDir();
    const result = await runCli(['ontology', '--out', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(readdirSync(dir).sort(), [...protocolVersions.filter((v) => v !== seedVersion), ...rootFiles]);
    for (const version of protocolVersions.filter((v) => v !== seedVersion))
      assert.deepEqual(readdirSync(path.join(dir, version)), ['mcp-ld-shapes.ttl']);
    assert.equal(result.stdout.trim().split('\n').length, generatedFiles.length);
    assert.deepEqual(await checkOntology(dir), []);
    await writeOntology(dir);
    assert.deepEqual(await checkOntology(dir), []);
  });
});

describe('cli: mcp-ld ontology', () => {
  it('--format turtle (the default) prints the ontology, which declares the classes of the schema', async () => {
    const result = await runCli(['ontology']);
    assert.equal(result.code, 0, result.stderr);
    const declared = declaredIris(parseTurtle(result.stdout));
    assert.ok(declared.has('http://modelcontextprotocol.io/ontology#CallToolRequest'));
    assert.equal(result.stdout, readFileSync(path.join(ontologyDir, 'mcp-ld.ttl'), 'utf8'));
  });

  it('--format rdfxml prints valid RDF/XML, isomorphic to the Turtle', async () => {
    const [xml, turtle] = await Promise.all([
      runCli(['ontology', '--format', 'rdfxml']),
      runCli(['ontology', '--format', 'turtle']),
    ]);
    assert.equal(xml.code, 0, xml.stderr);
    assert.match(xml.stdout, /^<rdf:RDF/);
    assert.ok(isomorphic(await parseRdfXmlStrictly(xml.stdout), parseTurtle(turtle.stdout)));
  });

  it('--shapes prints the shapes; --format jsonld and ntriples print those serializations', async () => {
    const shapes = await runCli(['ontology', '--shapes', '--format', 'ntriples']);
    assert.equal(shapes.code, 0, shapes.stderr);
    assert.match(shapes.stdout, /<http:\/\/www\.w3\.org\/ns\/shacl#NodeShape>/);
    const json = await runCli(['ontology', '--format', 'jsonld']);
    assert.equal(json.code, 0, json.stderr);
    assert.ok((await parseJsonLd(json.stdout)).length > 1000);
  });

  it('exits 2 with the usage on a wrong command line', async () => {
    for (const args of [['--format', 'owl'], ['--bogus'], ['--check', '--format', 'turtle'], ['--check', '--write']]) {
      const result = await runCli(['ontology', ...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: mcp-ld ontology/);
      assert.equal(result.stdout, '');
    }
  });

  it('--help prints the usage', async () => {
    const result = await runCli(['ontology', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /--format turtle\|rdfxml\|jsonld\|ntriples/);
  });
});
