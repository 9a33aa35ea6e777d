// The one lift-and-tally loop (lift/convert.ts) that the CLI and the API feed: what it counts, what becomes a failed
// line, and when it stops.
import assert from 'node:assert/strict';
import { McpLdError } from '../../src/core/problem.js';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { parseInput } from '../../src/lift/input.js';
import { Conversion, failedItemPlace } from '../../src/lift/convert.js';
import type { InputRecord } from '../../src/lift/records.js';
import { rejectedError } from '../helpers/mcp-ld-error.js';

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const input = [ping(1), '{"jsonrpc": "2.0", "id": ', ping(2), ping(3)].join('\n');
const refused = new McpLdError({ code: 'test.refused', status: 400, title: 'Refused', detail: 'this one is refused' });

describe('lift: the conversion loop', () => {
  const schema = loadSchema();

  it('lifts every good line, and records a line that does not parse as failed, with its number', async () => {
    const lifter = new Lifter(schema, { defaultSession: 'loop' });
    const conversion = new Conversion();
    const taken: number[] = [];
    await conversion.run(parseInput(input), {
      lift: (record) => lifter.liftToNQuads(record),
      take: (lifted) => taken.push(lifted.order),
    });
    assert.deepEqual(taken, [1, 2, 3]);
    assert.equal(conversion.summary.messages, 3);
    assert.equal(conversion.summary.sessions, 1);
    assert.deepEqual(
      conversion.summary.failed.map((f) => [f.line, f.error.code]),
      [[2, 'input.malformed-json']],
    );
  });

  it('records an McpLdError thrown while lifting an item as a failed line of that item, and lifts the items after it', async () => {
    const lifter = new Lifter(schema, { defaultSession: 'loop' });
    const conversion = new Conversion();
    const lift = (record: InputRecord) => {
      if ('msg' in record && record.msg['id'] === 2) throw refused;
      return lifter.lift(record);
    };
    const taken: number[] = [];
    await conversion.run(parseInput(input), { lift, take: (lifted) => taken.push(lifted.order) });
    assert.deepEqual(taken, [1, 2]);
    assert.deepEqual(
      conversion.summary.failed.map((f) => [f.line, f.error.code]),
      [
        [2, 'input.malformed-json'],
        [3, 'test.refused'],
      ],
    );
    assert.equal(conversion.summary.messages, 2);
  });

  it('lets any other error through: it is a bug, not a bad line', async () => {
    const conversion = new Conversion();
    await assert.rejects(
      conversion.run(parseInput(ping(1)), {
        lift: () => {
          throw new TypeError('a bug');
        },
        take: () => undefined,
      }),
      TypeError,
    );
  });

  it('throws the first failed line in strict mode, and an invalid message naming its line and batch item', async () => {
    await rejectedError(
      new Conversion({ strict: true }).run(parseInput(input), {
        lift: (record) => new Lifter(schema).lift(record),
        take: () => undefined,
      }),
      { code: 'input.malformed-json' },
    );
    const batch = `[${ping(1)}, {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}]`;
    const lifter = new Lifter(schema);
    await rejectedError(
      new Conversion({ strict: true }).run(parseInput(batch), {
        lift: (record) => lifter.lift(record),
        take: () => undefined,
      }),
      {
        code: 'lift.invalid-message',
        status: 422,
        detail: /^line 1, batch item 1: CallToolRequest is invalid at \/params/,
      },
    );
  });

  it('stops when `after` says so, and calls it after failed items too', async () => {
    const lifter = new Lifter(schema);
    const conversion = new Conversion();
    const seen: number[] = [];
    await conversion.run(parseInput(input), {
      lift: (record) => lifter.lift(record),
      take: () => undefined,
      after: (item) => (seen.push(item.line), item.line === 3),
    });
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(conversion.summary.messages, 2);
  });

  it('words the place of a failed item one way', () => {
    assert.equal(failedItemPlace({ line: 7 }), 'line 7');
    assert.equal(failedItemPlace({ line: 1, index: 3 }), 'line 1, batch item 3');
  });
});
