// The published message contexts are portable: every message of a known method in every capture of the corpus,
// taken raw (the JSON as it was on the wire) with its message context as `@context`, is expanded to RDF by jsonld.js
// and by rdflib's own JSON-LD parser, and each must give exactly the message's body triples as mcp-ld's reference
// engine gives them (issue 17, item 5).
//
// The body triples of a message: what the reference engine lifts from the message's JSON through its context (its
// quads less those of the fast lifter's session layer), without the graph name, less what JSON-LD cannot say from
// the raw JSON (both named in the contexts' `@comment` and in the README):
//   - the `rdf:type` of nested nodes (their classes come from the schema, not from the JSON);
//   - `jrpc:hasId`, which links to a request-id node minted from the session, the direction and the id;
// and with every IRI mcp-ld mints below the message (the message itself, each object's node, each list cell) read
// as a blank node, since a raw document names none of them. Graphs are compared up to blank node names; xsd:double
// literals by their value, since every processor writes its own lexical form of a double (jsonld.js 7.0E-1,
// rdflib 0.7); an integer progress token or request id as an integer whatever its datatype (see
// stringOrIntegerDatatypes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import jsonld from 'jsonld';
import { DataFactory, Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import type { JsonObject } from '../../src/core/json.js';
import { contextsDir, packageRoot } from '../../src/core/paths.js';
import { Lifter } from '../../src/lift/lifter.js';
import { ReferenceEngine } from '../../src/lift/reference.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { jrpc, ns, rdf, xsd } from '../../src/rdf/vocabulary.js';
import { loadSchema } from '../../src/schema/index.js';
import { captureRecords, captures } from '../helpers/corpus.js';
import { offlineDocumentLoader } from '../helpers/jsonld.js';
import { pythonWith, requireTools } from '../helpers/independent-tools.js';

const { blankNode, literal, namedNode, quad } = DataFactory;

interface Sample {
  name: string;
  /** The raw message with its message context inlined as `@context`. */
  document: JsonObject;
  body: Quad[];
}

/**
 * Datatypes the schema gives values that are strings or integers (progress tokens, request ids): mcp-ld types an
 * integer xsd:integer (1 and "1" stay apart), a processor gives it the term's datatype; JSON-LD cannot choose a
 * datatype by JSON type.
 */
const stringOrIntegerDatatypes: ReadonlySet<string> = new Set([`${ns.mcp}ProgressToken`, `${ns.mcp}RequestId`]);

/**
 * A term with mcp-ld's minted IRIs below `message` as blank nodes, and literals in one form per value where processors
 * differ.
 */
function portable(term: Term, message: string): Term {
  if (term.termType === 'NamedNode' && (term.value === message || term.value.startsWith(`${message}/`)))
    return blankNode(`m${term.value.slice(message.length)}`);
  if (term.termType !== 'Literal') return term;
  if (term.datatype.value === xsd.double) return literal(String(Number(term.value)), term.datatype);
  if (stringOrIntegerDatatypes.has(term.datatype.value) && /^-?[0-9]+$/.test(term.value))
    return literal(term.value, namedNode(xsd.integer));
  return term;
}

function portableGraph(quads: readonly Quad[], message: string): Quad[] {
  return quads.map((q) =>
    quad(portable(q.subject, message) as Quad['subject'], q.predicate, portable(q.object, message) as Quad['object']),
  );
}

/** The body triples of one lifted message (see the header). */
function bodyTriples(reference: readonly Quad[], sessionLayer: readonly Quad[], message: string): Quad[] {
  const session = new Set(writeNQuads([...sessionLayer]).split('\n'));
  const body = reference.filter((q) => !session.has(writeNQuads([q]).trimEnd()));
  const expressible = body.filter(
    (q) => q.predicate.value !== rdf.type && !(q.subject.value === message && q.predicate.value === jrpc.hasId),
  );
  return portableGraph(expressible, message);
}

/** Every message of a known method in every capture, with its raw document and its body triples. */
async function samples(): Promise<Sample[]> {
  const found: Sample[] = [];
  for (const { file } of captures) {
    const sessionLayer = new Lifter(loadSchema());
    const reference = new ReferenceEngine(new Lifter(loadSchema()));
    for (const record of captureRecords(file)) {
      const session = sessionLayer.lift(record, 'session-layer');
      const lifted = await reference.lift(record);
      if (!('msg' in record) || lifted.definition === undefined || lifted.unknownMethod) continue;
      const context = (JSON.parse(readFileSync(path.join(contextsDir, lifted.body.context), 'utf8')) as JsonObject)[
        '@context'
      ]!;
      found.push({
        name: `${file} #${record.seq ?? found.length} (${lifted.definition}, ${lifted.body.context})`,
        document: { '@context': context, ...record.msg },
        body: bodyTriples(lifted.quads, session.quads, lifted.iri),
      });
    }
  }
  return found;
}

function describe_(quads: readonly Quad[]): string {
  return writeNQuads([...quads])
    .split('\n')
    .filter((line) => line !== '')
    .sort()
    .join('\n    ');
}

/** The samples whose expansion is not the body, each with both graphs (the first few). */
function mismatches(all: readonly Sample[], expanded: ReadonlyMap<string, Quad[] | string>): string[] {
  const wrong: string[] = [];
  for (const sample of all) {
    const theirs = expanded.get(sample.name);
    if (typeof theirs === 'string') wrong.push(`${sample.name}: ${theirs}`);
    else if (theirs === undefined) wrong.push(`${sample.name}: not expanded`);
    else if (!isomorphic(portableGraph(theirs, '\u0000'), sample.body))
      wrong.push(
        `${sample.name}:\n  reference body:\n    ${describe_(sample.body)}\n  expanded:\n    ${describe_(portableGraph(theirs, '\u0000'))}`,
      );
  }
  return wrong;
}

function report(wrong: readonly string[], total: number, processor: string): string {
  return `${wrong.length} of ${total} messages expanded by ${processor} differ from their body triples:\n${wrong.slice(0, 6).join('\n')}`;
}

describe('conformance: the message contexts, applied to raw messages by jsonld.js and rdflib, give the body triples (every capture)', function () {
  this.timeout(600_000);
  let all: Sample[] = [];
  before(async () => {
    all = await samples();
  });

  it('finds messages of every capture to check', () => {
    for (const { file } of captures) assert.ok(all.filter((s) => s.name.startsWith(file)).length > 5, file);
  });

  it('jsonld.js gives every message its body triples', async () => {
    const expanded = new Map<string, Quad[] | string>();
    for (const sample of all) {
      try {
        const nquads = (await jsonld.toRDF(sample.document as jsonld.JsonLdDocument, {
          format: 'application/n-quads',
          documentLoader: offlineDocumentLoader as never,
        })) as unknown as string;
        expanded.set(sample.name, new Parser({ format: 'N-Quads' }).parse(nquads));
      } catch (error) {
        expanded.set(sample.name, `jsonld.js: ${(error as Error).message}`);
      }
    }
    const wrong = mismatches(all, expanded);
    assert.equal(wrong.length, 0, report(wrong, all.length, 'jsonld.js'));
  });

  it("rdflib's JSON-LD parser gives every message its body triples", function () {
    const python = pythonWith(['rdflib']);
    requireTools(this, python ? [] : ['python3 with rdflib (python3-rdflib)']);
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-contexts-'));
    try {
      const input = path.join(dir, 'documents.json');
      writeFileSync(input, JSON.stringify({ documents: all.map(({ name, document }) => ({ name, document })) }));
      const run = spawnSync(python!, [path.join(packageRoot, 'test', 'conformance', 'context_expand.py'), input], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      assert.equal(run.status, 0, run.stderr);
      const graphs = (JSON.parse(run.stdout) as { graphs: { name: string; ntriples: string[]; error?: string }[] })
        .graphs;
      const expanded = new Map<string, Quad[] | string>(
        graphs.map((g) => [g.name, g.error ?? new Parser({ format: 'N-Triples' }).parse(g.ntriples.join('\n'))]),
      );
      const wrong = mismatches(all, expanded);
      assert.equal(wrong.length, 0, report(wrong, all.length, 'rdflib'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
