import assert from 'node:assert/strict';
import SHACLValidator from 'rdf-validate-shacl';
import { DataFactory, Store, type Quad, type Term } from 'n3';
import { isJsonObject, splitPointer, type JsonObject } from '../../src/core/json.js';
import { loadSchema, type ProtocolVersion } from '../../src/schema/index.js';
import type { LiftedMessage } from '../../src/lift/lifter.js';
import { jrpc, ns, rdf } from '../../src/rdf/vocabulary.js';
import {
  generateShapes,
  ontologyModel,
  shapesNs,
  type ObjectModel,
  type OntologyModel,
} from '../../src/ontology/index.js';
import { liftCorpus, messageOf, ogcCorpus, trafficCorpus, type LiftedCorpus } from './rdf-helpers.js';
import { trafficRecords } from '../helpers/corpus.js';

const { namedNode, literal, quad } = DataFactory;
const shNs = 'http://www.w3.org/ns/shacl#';

interface Violation {
  component: string;
  path?: string;
  focus: string;
  value?: string;
  shape?: string;
}

type Result = {
  sourceConstraintComponent: Term;
  path: Term | null;
  focusNode: Term;
  value: Term | null;
  sourceShape: Term;
  detail: Result[];
};

/**
 * Every result of a report, with `nested` the details (why a sh:node failed). Details are only for reading: the
 * validator can attach the failed alternatives of an sh:or that another alternative satisfied.
 */
function violations(results: readonly Result[], nested = false): Violation[] {
  return results.flatMap((r) => [
    {
      component: r.sourceConstraintComponent.value.replace(shNs, 'sh:'),
      ...(r.path?.termType === 'NamedNode' ? { path: r.path.value } : {}),
      focus: r.focusNode.value,
      ...(r.value ? { value: r.value.value } : {}),
      ...(r.sourceShape.termType === 'NamedNode' ? { shape: r.sourceShape.value.replace(shapesNs, 'mlds:') } : {}),
    },
    ...(nested ? violations(r.detail ?? [], true) : []),
  ]);
}

const validators = new Map<ProtocolVersion, SHACLValidator>();
/** The shapes of one protocol version (the seed's by default): a graph is checked by its own version's shapes. */
function shapesValidator(protocol: ProtocolVersion = '2025-06-18'): SHACLValidator {
  let validator = validators.get(protocol);
  if (!validator)
    validators.set(protocol, (validator = new SHACLValidator(new Store(generateShapes(loadSchema({ protocol }))))));
  return validator;
}

/** The real capture speaks 2025-11-25 (its initialize negotiates it), and is lifted by that version. */
const captureVersion: ProtocolVersion = '2025-11-25';

async function validate(
  data: Store | Quad[],
  nested = false,
  protocol?: ProtocolVersion,
): Promise<{ conforms: boolean; violations: Violation[] }> {
  const report = await shapesValidator(protocol).validate(Array.isArray(data) ? new Store(data) : data);
  return { conforms: report.conforms, violations: violations(report.results as unknown as Result[], nested) };
}

/**
 * Whether an ajv problem is about something the graph has as triples: its path goes through annotated keys down
 * to a node or literal, not into a value kept whole as an rdf:JSON literal; and its keyword has a SHACL counterpart.
 */
function mapsToGraph(model: OntologyModel, definition: string, instancePath: string, keyword: string): boolean {
  if (!['required', 'type', 'const', 'enum', 'minimum', 'maximum', 'anyOf'].includes(keyword)) return false;
  const byClass = new Map(model.objects.filter((o) => o.classIri !== undefined).map((o) => [o.classIri!, o]));
  let object: ObjectModel | undefined = model.definitions.find((d) => d.name === definition)?.object;
  const tokens = splitPointer(instancePath);
  for (let i = 0; i < tokens.length; i++) {
    const property = object?.properties.find((p) => p.key === tokens[i]);
    if (property === undefined || property.value.kind === 'json' || property.value.kind === 'any') return false;
    if (property.list) i++;
    if (i === tokens.length - 1 || (property.list && i >= tokens.length - 1)) return true;
    if (property.value.kind !== 'node') return false;
    const alternatives = property.value.alternatives;
    if (alternatives.length !== 1) return true; // sh:or over the alternatives: a node that fits none is flagged
    object = alternatives[0]!.object ?? byClass.get(alternatives[0]!.classes[0]!);
  }
  return true;
}

function invalidMessages(corpus: LiftedCorpus) {
  return corpus.messages.filter(({ lifted }) => lifted.problems.length > 0);
}

describe('shapes: the lifted corpus conforms where the schema accepts it', function () {
  this.timeout(120_000);

  it('the real capture: no violation on a message ajv accepts, and none outside the messages', async () => {
    const corpus = trafficCorpus();
    const { violations: found } = await validate(corpus.store, false, captureVersion);
    const onValid = found.filter((v) => messageOf(corpus.messages, v.focus)?.lifted.problems.length === 0);
    assert.deepEqual(onValid, [], 'a shape rejects what the schema accepts (a lifting or a shape defect)');
    assert.deepEqual(
      found.filter((v) => messageOf(corpus.messages, v.focus) === undefined),
      [],
    );
    assert.ok(corpus.messages.filter(({ lifted }) => lifted.problems.length === 0).length > 190);
  });

  it('the OGC examples (all valid): no violation on any message', async () => {
    const corpus = ogcCorpus();
    assert.deepEqual(
      invalidMessages(corpus).map((m) => m.name),
      [],
    );
    const { violations: found } = await validate(corpus.store);
    assert.deepEqual(found, [], 'no violation anywhere, the entities of a server whose name is unknown included');
  });

  it('entities of messages without a server name link to a server typed mld:Server', async () => {
    const { conforms } = await validate(ogcCorpus().store);
    assert.ok(conforms);
  });

  it('flags every message ajv rejects where the failing constraint maps to the graph (not inside an rdf:JSON value)', async () => {
    // Read as 2025-06-18 (its initialize rewritten to agree on it), the capture's 2025-11-25 messages break the
    // older schema in many ways: the seed's shapes must flag each that the graph shows.
    const seed = loadSchema();
    const seedModel = ontologyModel(seed);
    const corpus = liftCorpus(
      trafficRecords().map((record) => {
        const msg = structuredClone(record.msg);
        for (const key of ['params', 'result']) {
          const body = msg[key];
          if (isJsonObject(body) && body['protocolVersion'] === '2025-11-25') body['protocolVersion'] = seed.version;
        }
        return { record: { ...record, msg }, name: `traffic seq ${record.seq}` };
      }),
    );
    assert.ok(corpus.messages.every(({ lifted }) => lifted.version === seed.version));
    const { violations: found } = await validate(corpus.store);
    const flagged = new Set(found.map((v) => messageOf(corpus.messages, v.focus)?.lifted.iri));
    const expected = invalidMessages(corpus).filter(({ lifted }) =>
      lifted.problems.some((p) => mapsToGraph(seedModel, lifted.definition!, p.instancePath, p.keyword)),
    );
    assert.ok(expected.length >= 6, `${expected.length} messages`);
    assert.deepEqual(
      expected.filter(({ lifted }) => !flagged.has(lifted.iri)).map((m) => m.name),
      [],
    );
    // The others fail only inside rdf:JSON values (an elicitation's requested schema, its form content).
    const unmapped = invalidMessages(corpus).filter((m) => !expected.includes(m));
    for (const { lifted } of unmapped) {
      assert.ok(
        lifted.problems.every((p) => /^\/(params\/requestedSchema|result\/content)\//.test(p.instancePath)),
        JSON.stringify(lifted.problems[0]),
      );
    }
  });
});

/** Lifts messages in one session (requests before the responses that answer them) and validates the graph. */
async function liftAndValidate(messages: JsonObject[], mutate?: (quads: Quad[]) => Quad[]) {
  const corpus = liftCorpus(
    messages.map((msg, i) => ({
      record: { msg, session: 'broken', server: 'test', seq: i + 1, ts: '2025-06-18T00:00:00Z' },
      name: `message ${i + 1}`,
    })),
  );
  let quads = corpus.store.getQuads(null, null, null, null);
  if (mutate) quads = mutate(quads);
  const result = await validate(quads, true);
  return { ...result, lifted: corpus.messages.map((m) => m.lifted) };
}

const request = (method: string, params: JsonObject, id = 1): JsonObject => ({ jsonrpc: '2.0', id, method, params });
const response = (result: JsonObject, id = 1): JsonObject => ({ jsonrpc: '2.0', id, result });

function assertFlags(
  result: { conforms: boolean; violations: Violation[] },
  component: string,
  path: string,
  message: string,
): void {
  assert.equal(result.conforms, false, `${message}: conforms`);
  assert.ok(
    result.violations.some((v) => v.component === component && v.path === path),
    `${message}: no ${component} on <${path}>: ${JSON.stringify(result.violations)}`,
  );
}

function assertAjvRejects(lifted: LiftedMessage[]): void {
  assert.ok(
    lifted.some((m) => m.problems.length > 0),
    'ajv accepts it',
  );
}

describe('shapes: broken graphs are rejected', function () {
  this.timeout(60_000);
  const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];

  it('accepts the well-formed messages the broken ones are made from', async () => {
    const result = await liftAndValidate([
      request('tools/call', { name: 'echo', arguments: { message: 'hi' } }),
      request('logging/setLevel', { level: 'info' }, 2),
      request('tools/list', {}, 3),
      response({ tools }, 3),
      request(
        'sampling/createMessage',
        {
          maxTokens: 100,
          messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
          modelPreferences: { costPriority: 0.5 },
        },
        4,
      ),
    ]);
    assert.deepEqual(result.violations, []);
    assert.ok(result.lifted.every((m) => m.problems.length === 0));
  });

  it('a missing required property (tools/call without a name)', async () => {
    const result = await liftAndValidate([request('tools/call', { arguments: {} })]);
    assertAjvRejects(result.lifted);
    assertFlags(result, 'sh:MinCountConstraintComponent', `${ns.mcp}hasName`, 'missing name');
    assertFlags(result, 'sh:NodeConstraintComponent', jrpc.hasParameters, 'the params node fails its shape');
  });

  it('a missing required property of a list member (a tool without an inputSchema)', async () => {
    const result = await liftAndValidate([request('tools/list', {}), response({ tools: [{ name: 'echo' }] })]);
    assertAjvRejects(result.lifted);
    assertFlags(result, 'sh:MinCountConstraintComponent', `${ns.mcp}hasInputSchema`, 'missing inputSchema');
  });

  it('a wrong datatype (maxTokens as a string)', async () => {
    const result = await liftAndValidate([request('sampling/createMessage', { maxTokens: '100', messages: [] })]);
    assertAjvRejects(result.lifted);
    assertFlags(result, 'sh:DatatypeConstraintComponent', `${ns.mcp}hasMaxTokens`, 'string maxTokens');
  });

  it('a wrong datatype in the graph itself (isError as a string)', async () => {
    const result = await liftAndValidate(
      [request('tools/call', { name: 'echo' }), response({ content: [], isError: false })],
      (quads) =>
        quads.map((q) => (q.predicate.value === `${ns.mcp}isError` ? quad(q.subject, q.predicate, literal('no')) : q)),
    );
    assertFlags(result, 'sh:DatatypeConstraintComponent', `${ns.mcp}isError`, 'string isError');
  });

  it('a value outside an enumeration (log level "verbose", role "robot")', async () => {
    const level = await liftAndValidate([request('logging/setLevel', { level: 'verbose' })]);
    assertAjvRejects(level.lifted);
    assertFlags(level, 'sh:InConstraintComponent', `${ns.mcp}hasLevel`, 'level verbose');
    const role = await liftAndValidate([
      request('sampling/createMessage', {
        maxTokens: 1,
        messages: [{ role: 'robot', content: { type: 'text', text: 'hi' } }],
      }),
    ]);
    assertAjvRejects(role.lifted);
    assertFlags(role, 'sh:InConstraintComponent', `${ns.mcp}hasRole`, 'role robot');
  });

  it('a constant that differs (a tools/call message whose method is not tools/call)', async () => {
    const result = await liftAndValidate([request('tools/call', { name: 'echo' })], (quads) =>
      quads.map((q) =>
        q.predicate.value === jrpc.hasMethod ? quad(q.subject, q.predicate, literal('tools/kall')) : q,
      ),
    );
    assertFlags(result, 'sh:HasValueConstraintComponent', jrpc.hasMethod, 'method');
  });

  it('a number out of bounds (a cost priority of 1.5)', async () => {
    const result = await liftAndValidate([
      request('sampling/createMessage', { maxTokens: 1, messages: [], modelPreferences: { costPriority: 1.5 } }),
    ]);
    assertAjvRejects(result.lifted);
    assertFlags(result, 'sh:MaxInclusiveConstraintComponent', `${ns.mcp}hasCostPriority`, 'costPriority');
  });

  it('a content block of no known kind, and a broken list', async () => {
    const video = await liftAndValidate([
      request('tools/call', { name: 'echo' }),
      response({ content: [{ type: 'video', url: 'x' }] }),
    ]);
    assertAjvRejects(video.lifted);
    assert.ok(
      video.violations.some(
        (v) =>
          v.component === 'sh:OrConstraintComponent' &&
          v.focus.endsWith('/message/2/result') &&
          v.value?.endsWith('/content/0'),
      ),
      JSON.stringify(video.violations),
    );
    const broken = await liftAndValidate(
      [request('tools/list', {}), response({ tools: [...tools, ...tools] })],
      (quads) => quads.filter((q) => !(q.predicate.value === rdf.rest && q.subject.value.endsWith('hasTool~0'))),
    );
    assert.equal(broken.conforms, false);
    assert.ok(
      broken.violations.some((v) => v.shape === 'mlds:ListCell' || v.component === 'sh:NodeConstraintComponent'),
      JSON.stringify(broken.violations),
    );
  });

  it('a message without its session layer (no mld:inSession, no direction)', async () => {
    const result = await liftAndValidate([request('tools/call', { name: 'echo' })], (quads) =>
      quads.filter((q) => q.predicate.value !== `${ns.mld}inSession` && q.predicate.value !== `${ns.mld}direction`),
    );
    assertFlags(result, 'sh:MinCountConstraintComponent', `${ns.mld}inSession`, 'inSession');
    assertFlags(result, 'sh:MinCountConstraintComponent', `${ns.mld}direction`, 'direction');
  });

  it('checks every node of a class wherever it is (an mcp:Implementation without a name)', async () => {
    const result = await liftAndValidate([request('tools/call', { name: 'echo' })], (quads) => [
      ...quads,
      quad(namedNode('urn:test:orphan'), namedNode(rdf.type), namedNode(`${ns.mcp}Implementation`)),
    ]);
    assertFlags(result, 'sh:MinCountConstraintComponent', `${ns.mcp}hasName`, 'an Implementation without a name');
  });
});
