// The ontology (Turtle, RDF/XML, N-Triples) through the OWL API's OWL 2 DL profile check: no violation but the one
// OWL 2 cannot avoid and ontology/README.md names, rdf:JSON as an unknown datatype. (The OWL API reads a .jsonld
// file as RDF/JSON, not JSON-LD; the JSON-LD is checked isomorphic to the Turtle in test/ontology/serializations.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ontologyDir, packageRoot } from '../../src/core/paths.js';
import { owlApiClassPath, requireTools } from '../helpers/independent-tools.js';

const unavoidable =
  /^VIOLATION Use of unknown datatype: rdf:JSON \[DataPropertyRange\(<([^>]+)> (?:rdf:JSON|DataUnionOf\(rdf:JSON xsd:integer\))\)/;

describe("conformance: the ontology is OWL 2 DL but for rdf:JSON (the OWL API's profile check)", function () {
  this.timeout(300_000);
  const classes = mkdtempSync(path.join(tmpdir(), 'mcp-ld-owlapi-'));
  let classPath: string | undefined;

  before(function () {
    classPath = owlApiClassPath();
    requireTools(this, classPath ? [] : ['the OWL API with java and javac (libowlapi-java, default-jdk-headless)']);
    const compiled = spawnSync(
      'javac',
      ['-cp', classPath!, '-d', classes, path.join(packageRoot, 'test', 'conformance', 'Owl2DlProfile.java')],
      { encoding: 'utf8' },
    );
    assert.equal(compiled.status, 0, compiled.stderr);
  });
  after(() => rmSync(classes, { recursive: true, force: true }));

  for (const document of ['mcp-ld.ttl', 'mcp-ld.rdf', 'mcp-ld.nt']) {
    it(`${document}: the only violations are rdf:JSON, once per data property whose range names it (as the README says)`, () => {
      const run = spawnSync(
        'java',
        ['-cp', `${classPath}:${classes}`, 'Owl2DlProfile', path.join(ontologyDir, document)],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
      assert.match(run.stdout, /OWL 2 DL: (true|false), violations \d+/, run.stderr.slice(-2000));
      const violations = run.stdout.split('\n').filter((line) => line.startsWith('VIOLATION '));
      const other = violations.filter((line) => !unavoidable.test(line));
      assert.deepEqual(
        other.map((line) => line.slice(0, 300)),
        [],
      );
      const properties = violations.map((line) => unavoidable.exec(line)![1]!);
      assert.equal(new Set(properties).size, properties.length);
      assert.ok(properties.length > 0 && properties.includes('http://modelcontextprotocol.io/ontology#hasInputSchema'));
      const readme = readFileSync(path.join(ontologyDir, 'README.md'), 'utf8');
      assert.match(
        readme,
        new RegExp(
          `Use of unknown datatype: rdf:JSON\\*? once per data property whose range names it \\(${properties.length} properties`,
        ),
      );
    });
  }
});
