// Reads a text/event-stream as it arrives, as bytes (a character may be split across chunks): each event's type,
// id and data, and where in the stream an event began and its data lay, so that a relay can hold or rewrite exactly
// one event's bytes. It only reads: what it is given is relayed by its caller, unchanged.

const cr = 0x0d;
const lf = 0x0a;
const colon = 0x3a;
const space = 0x20;

export interface SseEvent {
  /** The `event:` field, or "message" (the default type). */
  type: string;
  /** The `data:` fields joined by line feeds; undefined when the event had none (an id or retry alone). */
  data: Buffer | undefined;
  id: string | undefined;
  /** Stream offsets [start, end) of the data when the event had one `data:` line. */
  dataRange: [number, number] | undefined;
  /** Stream offset of the event's first field line, and of the end of the blank line that dispatched it. */
  start: number;
  end: number;
}

export class SseReader {
  private buffer: Buffer = Buffer.alloc(0);
  /** Stream offset of buffer[0]. */
  private offset = 0;
  private type = '';
  private id: string | undefined;
  private data: Buffer[] = [];
  private dataRange: [number, number] | undefined;
  /** Stream offset of the first field line of the event being read; undefined between events. */
  eventStart: number | undefined;

  /** Reads a chunk; `onEvent` is called for each event the chunk completes, in order. */
  push(chunk: Buffer, onEvent: (event: SseEvent) => void): void {
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, chunk]) : chunk;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const byte = this.buffer[i];
      if (byte !== cr && byte !== lf) continue;
      // A CR at the end of what has come may be the first half of a CRLF: wait for the next chunk.
      if (byte === cr && i + 1 === this.buffer.length) break;
      const lineStart = this.offset + start;
      const line = this.buffer.subarray(start, i);
      if (byte === cr && this.buffer[i + 1] === lf) i++;
      start = i + 1;
      this.line(line, lineStart, this.offset + start, onEvent);
    }
    this.offset += start;
    this.buffer = Buffer.from(this.buffer.subarray(start));
  }

  private line(line: Buffer, lineStart: number, lineEnd: number, onEvent: (event: SseEvent) => void): void {
    if (line.length === 0) {
      if (this.eventStart !== undefined) {
        const data =
          this.data.length === 0
            ? undefined
            : Buffer.concat(this.data.flatMap((d, i) => (i === 0 ? [d] : [Buffer.of(lf), d])));
        onEvent({
          type: this.type || 'message',
          data,
          id: this.id,
          dataRange: this.data.length === 1 ? this.dataRange : undefined,
          start: this.eventStart,
          end: lineEnd,
        });
      }
      this.type = '';
      this.id = undefined;
      this.data = [];
      this.dataRange = undefined;
      this.eventStart = undefined;
      return;
    }
    if (line[0] === colon) return; // a comment (a keep-alive)
    this.eventStart ??= lineStart;
    const at = line.indexOf(colon);
    const name = (at < 0 ? line : line.subarray(0, at)).toString('utf8');
    const valueAt = at < 0 ? line.length : line[at + 1] === space ? at + 2 : at + 1;
    const value = line.subarray(valueAt);
    if (name === 'data') {
      this.data.push(value);
      this.dataRange = [lineStart + valueAt, lineStart + line.length];
    } else if (name === 'event') this.type = value.toString('utf8');
    else if (name === 'id') this.id = value.toString('utf8');
  }
}
