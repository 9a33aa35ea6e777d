// Splits a byte stream into newline-delimited lines (MCP's stdio framing), keeping an incomplete tail for the next
// chunk. It only observes: the relayed bytes are never touched, and lines are given as bytes (whoever reads them
// decides what bytes that are not UTF-8 mean).

export interface SplitLine {
  /** The line, without its newline (and without a trailing \r). */
  bytes: Buffer;
  /** Where its first byte is in the stream, counted from 0. */
  offset: number;
}

export class LineSplitter {
  private tail: Buffer = Buffer.alloc(0);
  /** Stream offset of the tail's first byte. */
  private tailOffset = 0;

  /** The complete lines in `chunk` (plus what was pending). */
  push(chunk: Buffer): SplitLine[] {
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const lines: SplitLine[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end >= 0; end = data.indexOf(0x0a, start)) {
      const stop = end > start && data[end - 1] === 0x0d ? end - 1 : end;
      lines.push({ bytes: data.subarray(start, stop), offset: this.tailOffset + start });
      start = end + 1;
    }
    this.tail = start < data.length ? Buffer.from(data.subarray(start)) : Buffer.alloc(0);
    this.tailOffset += start;
    return lines;
  }

  /** Bytes of the line still incomplete (a guard against an endless line). */
  get pendingBytes(): number {
    return this.tail.length;
  }

  /** What is left when the stream ends without a final newline. */
  end(): SplitLine | undefined {
    if (this.tail.length === 0) return undefined;
    const last = { bytes: this.tail, offset: this.tailOffset };
    this.tailOffset += this.tail.length;
    this.tail = Buffer.alloc(0);
    return last;
  }
}
