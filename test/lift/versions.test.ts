// Every protocol version lifted first-class, on real traffic of each (test/fixtures/traffic, see its README) and on
// the official 2026-07-28 examples: each message by its own version's schema, typed by that version's class, no key
// or method that version's schema defines left under the extension vocabulary (lowering: test/lower).
import assert from 'node:assert/strict';
import { loadSchema, type ProtocolVersion } from '../../src/schema/index.js';
import { Lifter, type LiftedMessage } from '../../src/lift/lifter.js';
import { Lowerer } from '../../src/lower/lower.js';
import { jrpc, mld, ns, rdf } from '../../src/rdf/vocabulary.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import { captureRecords, captures, officialMessageExamples } from '../helpers/corpus.js';
import { SchemaKeys } from '../helpers/schema-keys.js';

/** Every extension-vocabulary triple whose key the message's version defines at that place. */
function schemaKeysUnderExtension(lifted: LiftedMessage, keys: SchemaKeys): string[] {
  if (lifted.definition === undefined) return [];
  const found: string[] = [];
  for (const q of lifted.quads) {
    if (!q.predicate.value.startsWith(ns.mldx) || !q.subject.value.startsWith(lifted.iri)) continue;
    const key = decodeURIComponent(q.predicate.value.slice(ns.mldx.length));
    const path = q.subject.value.slice(lifted.iri.length).split('/').filter(Boolean).map(decodeURIComponent);
    // A result definition describes the `result` object; a request or notification the whole message.
    const isResult = path[0] === 'result';
    if (path[0] === 'error') continue;
    if (keys.keysAt(lifted.definition, isResult ? path.slice(1) : path).has(key))
      found.push(`${lifted.definition} /${path.join('/')} ${key}`);
  }
  return found;
}

function liftAll(records: CaptureRecord[], protocol?: ProtocolVersion) {
  const lifter = new Lifter(loadSchema(protocol ? { protocol } : {}));
  return { lifter, lifted: records.map((record) => lifter.lift(record)) };
}

describe('lift: every protocol version, on real traffic of each', () => {
  for (const { file, version } of captures) {
    describe(`${file} (${version})`, () => {
      const records = captureRecords(file);
      const { lifter, lifted } = liftAll(records);
      const schema = loadSchema({ protocol: version });

      it(`lifts every message by ${version}, and says so on each`, () => {
        assert.deepEqual([...new Set(lifted.map((m) => m.version))], [version]);
        for (const message of lifted) {
          const said = message.quads
            .filter((q) => q.subject.value === message.iri && q.predicate.value === mld.schemaVersion)
            .map((q) => q.object.value);
          assert.deepEqual(said, [version], message.iri);
        }
      });

      it(`types every message by the class of its ${version} definition, and knows every method ${version} defines`, () => {
        const plansOf = lifter.plans.schema === schema ? lifter.plans : undefined;
        lifted.forEach((message, i) => {
          const msg = records[i]!.msg;
          const types = message.quads
            .filter((q) => q.subject.value === message.iri && q.predicate.value === rdf.type)
            .map((q) => q.object.value);
          const method = typeof msg['method'] === 'string' ? msg['method'] : undefined;
          if (method !== undefined) {
            const definition = schema.messageForMethod(method);
            assert.equal(message.unknownMethod, definition === undefined, `${message.iri} (${method})`);
            if (definition)
              assert.ok(
                types.includes(`${ns.mcp}${definition.name}`) ||
                  (plansOf && types.includes(plansOf.plan(definition.name)!.class)),
                `${message.iri} is not typed ${definition.name}: ${types}`,
              );
            else assert.ok(types.includes(mld.UnknownMessage), message.iri);
          } else if ('result' in msg && message.definition !== undefined) {
            assert.ok(
              schema.message(message.definition)?.kind === 'result',
              `${message.iri}: ${message.definition} is a result of ${version}`,
            );
            assert.ok(types.includes(jrpc.Response), message.iri);
          }
        });
      });

      it(`files no key that ${version}'s schema defines under the extension vocabulary`, () => {
        const keys = new SchemaKeys(schema);
        assert.deepEqual(
          lifted.flatMap((message) => schemaKeysUnderExtension(message, keys)),
          [],
        );
      });

      it('is valid against its own version where the peers sent valid messages', () => {
        // Each capture's README notes what its peers sent that their version does not define; nothing is invalid
        // for want of the version's own definitions.
        const invalid = lifted
          .filter((message) => message.problems.length > 0)
          .map((m) => `${m.iri} ${m.definition}: ${m.problems[0]!.instancePath} ${m.problems[0]!.message}`);
        assert.ok(invalid.length <= 1, invalid.join('\n'));
      });
    });
  }
});

describe('lift: 2026-07-28 semantics on its real traffic', () => {
  const records = captureRecords('traffic-v2-field-notes-http.jsonl');
  const { lifted } = liftAll(records);
  const quads = lifted.flatMap((m) => m.quads);
  const objects = (subject: string, predicate: string) =>
    quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);
  const session = 'urn:mcp-ld:session/25aeee26-538d-43ca-bce8-5b36993e12af';
  const message = (seq: number) => `${session}/message/${seq}`;

  it("names the session's client and server, and their protocol version, without initialize", () => {
    assert.deepEqual(objects(session, mld.client), ['urn:mcp-ld:implementation/mcpcap-driver-v2/0.2.0']);
    assert.deepEqual(objects(session, mld.serverImplementation), ['urn:mcp-ld:implementation/field-notes/1.3.0']);
    assert.deepEqual(objects(session, mld.protocolVersion), ['2026-07-28']);
    assert.equal(objects(session, mld.serverCapabilities).length, 1);
    assert.deepEqual(objects('urn:mcp-ld:implementation/field-notes/1.3.0', `${ns.mcp}hasName`), ['field-notes']);
  });

  it('links each retry to the InputRequiredResult it answers, in one operation with its rounds, outcome and latency', () => {
    // Every request with inputResponses (but the forged plan_trip, which answers no open round) is a retry.
    const retries = records.filter((r) => r.dir === 'c2s' && 'inputResponses' in ((r.msg['params'] as object) ?? {}));
    const linked = retries.filter((r) => objects(message(r.seq!), mld.answersInputRequired).length === 1);
    assert.equal(linked.length, retries.length - 1);
    // plan_trip for Ada: three requests, two input rounds, complete.
    const first = records.find(
      (r) => r.msg['method'] === 'tools/call' && JSON.stringify(r.msg['params']).includes('"traveller":"Ada"'),
    )!;
    const operation = `${message(first.seq!)}/operation`;
    assert.deepEqual(objects(operation, rdf.type), [mld.Operation]);
    assert.deepEqual(objects(operation, mld.attempts), ['3']);
    assert.deepEqual(objects(operation, mld.rounds), ['2']);
    assert.deepEqual(objects(operation, mld.outcome), ['complete']);
    const final = objects(operation, mld.finalResponse)[0]!;
    const at = (iri: string) => Date.parse(records.find((r) => message(r.seq!) === iri)!.ts!);
    assert.deepEqual(objects(operation, mld.totalLatencyMs), [String(at(final) - Date.parse(first.ts!))]);
    // verify_identity: five input rounds, then the client gave up: no outcome.
    const verify = records.find(
      (r) => r.msg['method'] === 'tools/call' && JSON.stringify(r.msg['params']).includes('verify_identity'),
    )!;
    assert.deepEqual(objects(`${message(verify.seq!)}/operation`, mld.outcome), []);
    assert.equal(
      quads.filter((q) => q.predicate.value === mld.operation && q.object.value === `${message(verify.seq!)}/operation`)
        .length,
      10,
    );
  });

  it('lifts each input request by its own definition and links the input response that answers it', () => {
    const inputRequests = quads
      .filter((q) => q.predicate.value === rdf.type && q.object.value === mld.InputRequest)
      .map((q) => q.subject.value);
    assert.ok(inputRequests.length >= 14);
    const elicitation = inputRequests.find((iri) => objects(iri, rdf.type).includes(`${ns.mcp}ElicitRequest`))!;
    assert.deepEqual(objects(elicitation, jrpc.hasMethod), ['elicitation/create']);
    const responses = quads.filter((q) => q.predicate.value === mld.respondsToInput).map((q) => q.object.value);
    assert.ok(responses.includes(elicitation));
  });

  it('ties the acknowledgement and every notification tagged with the subscription to the subscriptions/listen request', () => {
    const listen = records.find((r) => r.msg['method'] === 'subscriptions/listen')!;
    assert.deepEqual(
      objects(message(listen.seq!), rdf.type).filter((t) => t === mld.Subscription),
      [mld.Subscription],
    );
    const tagged = records.filter((r) =>
      JSON.stringify(r.msg).includes('"io.modelcontextprotocol/subscriptionId":"listen:0"'),
    );
    assert.ok(tagged.length >= 5);
    for (const r of tagged)
      assert.deepEqual(objects(message(r.seq!), mld.subscription), [message(listen.seq!)], `seq ${r.seq}`);
  });
});

describe('lift: the official 2026-07-28 examples', () => {
  it('lifts each whole message by 2026-07-28 (asked for, as --protocol does) and lowers it back exactly', () => {
    const examples = officialMessageExamples();
    assert.ok(examples.length >= 20);
    for (const { name, msg } of examples) {
      const lifter = new Lifter(loadSchema({ protocol: '2026-07-28' }), { defaultSession: name });
      const lifted = lifter.lift({ msg });
      assert.equal(lifted.version, '2026-07-28', name);
      assert.deepEqual(
        schemaKeysUnderExtension(lifted, new SchemaKeys(loadSchema({ protocol: '2026-07-28' }))),
        [],
        name,
      );
      const [lowered] = new Lowerer(lifter.plans).lower(lifted.quads);
      assert.deepStrictEqual((lowered as CaptureRecord).msg, msg, name);
    }
  });

  it('reads a version it does not know by the newest older one, and says which it was', () => {
    const lifter = new Lifter(loadSchema());
    const lifted = lifter.lift({
      msg: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-03-01' } },
      },
    });
    assert.equal(lifted.version, '2026-07-28');
    assert.equal(lifted.unknownVersion, '2027-03-01');
    assert.ok(lifted.quads.some((q) => q.predicate.value === mld.declaredVersion && q.object.value === '2027-03-01'));
  });
});

describe('lift: the alternative an object is of (anyOf, told apart by consts and required keys)', () => {
  /** The classes of the `params` of an elicitation/create with `params`, lifted by 2025-11-25. */
  function paramsClasses(params: Record<string, unknown>): string[] {
    const lifted = new Lifter(loadSchema({ protocol: '2025-11-25' }), { defaultSession: 's' }).lift({
      dir: 's2c',
      msg: { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params } as CaptureRecord['msg'],
    });
    return lifted.quads
      .filter((q) => q.subject.value === `${lifted.iri}/params` && q.predicate.value === rdf.type)
      .map((q) => q.object.value)
      .sort();
  }
  const form = `${ns.mcp}ElicitRequestFormParams`;
  const url = `${ns.mcp}ElicitRequestURLParams`;
  const requestedSchema = { type: 'object', properties: {} };

  it('types form params by the const they give, and by their required keys when the optional const is absent', () => {
    assert.ok(paramsClasses({ mode: 'form', message: 'm', requestedSchema }).includes(form));
    // 2025-11-25's form elicitation need not say mode "form"; URL params must say "url".
    assert.ok(paramsClasses({ message: 'm', requestedSchema }).includes(form));
    assert.ok(!paramsClasses({ message: 'm', requestedSchema }).includes(url));
  });

  it('types URL params by their const, and gives no alternative class to params that fit neither or both', () => {
    const urlParams = { mode: 'url', message: 'm', url: 'https://example.org/', elicitationId: 'e1' };
    assert.ok(paramsClasses(urlParams).includes(url));
    assert.ok(!paramsClasses(urlParams).includes(form));
    for (const classes of [paramsClasses({ mode: 'other', message: 'm' }), paramsClasses({ message: 'm' })]) {
      assert.ok(!classes.includes(form) && !classes.includes(url), classes.join(' '));
    }
  });
});
