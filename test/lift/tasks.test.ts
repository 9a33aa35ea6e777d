// Tasks, lifted by their definitions: 2026-07-28's Tasks extension (io.modelcontextprotocol/tasks), whose schema joins
// the core one (src/schema/extensions.ts). Pins the specification's example flow (test/fixtures/tasks-extension/)
// and every example message of the extension's specification (schemas/official/2026-07-28/extensions/tasks/tasks.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Quad } from '@rdfjs/types';
import { packageRoot, schemasDir } from '../../src/core/paths.js';
import type { JsonObject } from '../../src/core/json.js';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { ReferenceEngine } from '../../src/lift/reference.js';
import { Lowerer } from '../../src/lower/lower.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { mld, ns } from '../../src/rdf/vocabulary.js';
import type { CaptureRecord } from '../../src/lift/records.js';

const flowFile = path.join(packageRoot, 'test', 'fixtures', 'tasks-extension', 'hello-world-flow.jsonl');
const flow = readFileSync(flowFile, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as CaptureRecord);
const mcp = (local: string) => `${ns.mcp}${local}`;
const session = 'urn:mcp-ld:session/tasks-hello-world';
const message = (n: number, ...path: string[]) => [`${session}/message/${n}`, ...path].join('/');

function liftAll(records: CaptureRecord[]): Quad[] {
  const lifter = new Lifter(loadSchema());
  return records.flatMap((record) => lifter.lift(record).quads);
}

const objects = (quads: Quad[], subject: string, predicate: string) =>
  quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);
const typesOf = (quads: Quad[], subject: string) => objects(quads, subject, `${ns.rdf}type`).sort();

/** The JSON messages of the extension's specification, in its order (`jsonc` blocks without their comments). */
function specificationExamples(): JsonObject[] {
  const text = readFileSync(path.join(schemasDir, 'official', '2026-07-28', 'extensions', 'tasks', 'tasks.md'), 'utf8');
  const found: JsonObject[] = [];
  for (const [, kind, body] of text.matchAll(/```(json|jsonc)\n([\s\S]*?)```/g)) {
    const source = kind === 'jsonc' ? body!.replace(/\/\/[^\n]*/g, '').replace(/,(\s*[}\]])/g, '$1') : body!;
    try {
      const value = JSON.parse(source) as JsonObject;
      if (value['jsonrpc'] === '2.0') found.push(value);
    } catch {
      // a TypeScript or partial block
    }
  }
  return found;
}

describe('lift: the Tasks extension of 2026-07-28', () => {
  const quads = liftAll(flow);

  it('types every message of the example flow by its own definition, with no key under the extension vocabulary', () => {
    const expected = [
      'CallToolRequest',
      'CreateTaskResult',
      'GetTaskRequest',
      'GetTaskResult',
      'GetTaskRequest',
      'GetTaskResult',
      'GetTaskRequest',
      'GetTaskResult',
      'UpdateTaskRequest',
      'UpdateTaskResult',
      'GetTaskRequest',
      'GetTaskResult',
      'GetTaskRequest',
      'GetTaskResult',
    ];
    assert.deepEqual(
      flow.map((_, i) =>
        typesOf(quads, message(i + 1))
          .filter((t) => t.startsWith(ns.mcp))
          .map((t) => t.slice(ns.mcp.length)),
      ),
      expected.map((name) => [name]),
    );
    assert.deepEqual(
      quads
        .filter((q) => q.predicate.value === mld.extensionKey || q.predicate.value.startsWith(ns.mldx))
        .map((q) => q.predicate.value),
      [],
    );
    assert.deepEqual(
      quads.filter((q) => q.predicate.value === mld.schemaVersion).map((q) => q.object.value),
      flow.map(() => '2026-07-28'),
    );
    // The task's state by status: working, input_required, completed.
    assert.deepEqual(
      [4, 6, 8, 12, 14].map((n) => typesOf(quads, message(n, 'result')).map((t) => t.slice(ns.mcp.length))),
      [['WorkingTask'], ['InputRequiredTask'], ['InputRequiredTask'], ['WorkingTask'], ['CompletedTask']],
    );
    assert.deepEqual(objects(quads, message(2, 'result'), mcp('hasTtl')), ['3600000']);
    assert.deepEqual(objects(quads, message(2, 'result'), mcp('hasPollInterval')), ['5000']);
  });

  it('links every message about the task to the tools/call it runs, its input request to the tasks/update that answers it, and its result as a CallToolResult', () => {
    // tasks/get (3, 5, 7, 11, 13) and tasks/update (9) name the task the CreateTaskResult (2) gave the tools/call (1).
    assert.deepEqual(
      quads.filter((q) => q.predicate.value === mld.taskRequest).map((q) => q.subject.value),
      [3, 5, 7, 9, 11, 13].map((n) => message(n)),
    );
    assert.ok(quads.filter((q) => q.predicate.value === mld.taskRequest).every((q) => q.object.value === message(1)));
    // The elicitation the task waits on is lifted by ElicitRequest's definition, and the answer by ElicitResult's.
    const asked = message(8, 'result', 'inputRequests', 'name');
    assert.deepEqual(objects(quads, message(8, 'result'), mld.inputRequest), [asked]);
    assert.deepEqual(typesOf(quads, asked), [mld.InputRequest, mcp('ElicitRequest')].sort());
    assert.deepEqual(
      objects(quads, `${asked}/params`, mcp('hasElicitationMessage')).length +
        objects(quads, `${asked}/params`, mcp('hasMessage')).length,
      1,
    );
    const answer = message(9, 'params', 'inputResponses', 'name');
    assert.deepEqual(objects(quads, answer, mld.respondsToInput), [asked]);
    assert.deepEqual(typesOf(quads, answer), [mld.InputResponse, mcp('ElicitResult')].sort());
    // The completed task's result: a CallToolResult with its text, beside the rdf:JSON literal lowering reads.
    const result = message(14, 'result', 'result');
    assert.deepEqual(objects(quads, message(14, 'result'), mld.taskResult), [result]);
    assert.deepEqual(typesOf(quads, result), [mcp('CallToolResult')]);
    assert.deepEqual(objects(quads, `${result}/content/0`, mcp('hasText')), ['Hello, Luca!']);
  });

  it('lowers the flow back exactly, and the reference engine lifts the same quads', async () => {
    const lowered = new Lowerer(new Lifter(loadSchema()).plans).lower(quads);
    assert.deepEqual(
      lowered.map((record) => ('msg' in record ? record.msg : undefined)),
      flow.map((record) => record.msg),
    );
    const reference = new ReferenceEngine(new Lifter(loadSchema()));
    const fast = new Lifter(loadSchema());
    for (const record of flow) {
      const a = writeNQuads(fast.lift(record).quads).trim().split('\n').sort();
      const b = writeNQuads((await reference.lift(record)).quads)
        .trim()
        .split('\n')
        .sort();
      assert.deepEqual(b, a, `message ${record.seq}`);
    }
  });

  it('types every example message of the extension specification by its definition', () => {
    const examples = specificationExamples();
    assert.equal(examples.length, 22);
    // Plain messages, lifted by the version named for them (`--protocol 2026-07-28`).
    const lifter = new Lifter(loadSchema({ protocol: '2026-07-28' }));
    const classes = examples.map((msg, i) => {
      const lifted = lifter.lift({ session: `example-${i}`, msg }).quads;
      const iri = lifted.find((q) => q.predicate.value === mld.order)!.subject.value;
      return (
        typesOf(lifted, iri)
          .filter((t) => t.startsWith(ns.mcp))
          .map((t) => t.slice(ns.mcp.length))[0] ?? (msg['error'] ? 'error' : 'none')
      );
    });
    // Each example alone: a result answers no request it can see, so `resultType` says what it is ("task": a task
    // handle; "complete" on a tasks/get answer fits GetTaskResult alone).
    const methods = examples.map((msg) =>
      String(
        msg['method'] ?? (msg['error'] ? 'error' : `result ${String((msg['result'] as JsonObject)['resultType'])}`),
      ),
    );
    const byMethod: Record<string, string> = {
      'tools/call': 'CallToolRequest',
      'tasks/get': 'GetTaskRequest',
      'tasks/update': 'UpdateTaskRequest',
      'notifications/tasks': 'TaskStatusNotification',
      'subscriptions/listen': 'SubscriptionsListenRequest',
      'result task': 'CreateTaskResult',
      error: 'error',
    };
    classes.forEach((found, i) => {
      const wanted = byMethod[methods[i]!];
      if (wanted !== undefined) assert.equal(found, wanted, `example ${i + 1} (${methods[i]})`);
    });
  });
});
