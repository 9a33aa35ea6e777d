import assert from 'node:assert/strict';
import { SseReader, type SseEvent } from '../../src/tap/sse-reader.js';

function read(stream: Buffer, chunkSize: number): SseEvent[] {
  const reader = new SseReader();
  const events: SseEvent[] = [];
  for (let i = 0; i < stream.length; i += chunkSize)
    reader.push(stream.subarray(i, i + chunkSize), (event) => events.push(event));
  return events;
}

describe('tap: reading a text/event-stream as it arrives', () => {
  const stream = Buffer.from(
    ': keep-alive\n\nid: 7\r\nevent: endpoint\r\ndata: /message?sessionId=é\r\n\r\ndata: {"a":\rdata: 1}\r\rid: only\n\ndata\n\n',
  );

  for (const size of [1, 2, 3, stream.length]) {
    it(`gives each event's type, id, data and where it lay, whatever the chunks (${size} byte${size === 1 ? '' : 's'} at a time)`, () => {
      const events = read(stream, size).map((e) => ({ ...e, data: e.data?.toString('utf8') }));
      const at = (text: string) => stream.indexOf(text);
      assert.deepEqual(events, [
        {
          type: 'endpoint',
          id: '7',
          data: '/message?sessionId=é',
          dataRange: [at('/message'), at('/message') + Buffer.byteLength('/message?sessionId=é')],
          start: at('id: 7'),
          end: at('data: {'),
        },
        {
          type: 'message',
          id: undefined,
          data: '{"a":\n1}',
          dataRange: undefined,
          start: at('data: {'),
          end: at('id: only'),
        },
        {
          type: 'message',
          id: 'only',
          data: undefined,
          dataRange: undefined,
          start: at('id: only'),
          end: at('data\n'),
        },
        {
          type: 'message',
          id: undefined,
          data: '',
          dataRange: [stream.length - 2, stream.length - 2],
          start: stream.length - 6,
          end: stream.length,
        },
      ]);
    });
  }

  it('says where the event under way began, and that none is under way after a comment or between events', () => {
    const reader = new SseReader();
    reader.push(Buffer.from(': ping\n'), () => {});
    assert.equal(reader.eventStart, undefined);
    reader.push(Buffer.from('\nevent: endpoint\nda'), () => {});
    assert.equal(reader.eventStart, 8);
    reader.push(Buffer.from('ta: /x\n\n'), () => {});
    assert.equal(reader.eventStart, undefined);
  });
});
