// Splits a byte stream into newline-delimited lines (MCP's stdio framing), keeping an incomplete tail for the next
// chunk. It only observes: the relayed bytes are never touched.

export class LineSplitter {
  private tail: Buffer = Buffer.alloc(0);

  /** The complete lines in `chunk` (plus what was pending), without their newline (and without a trailing \r). */
  push(chunk: Buffer): string[] {
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end >= 0; end = data.indexOf(0x0a, start)) {
      const stop = end > start && data[end - 1] === 0x0d ? end - 1 : end;
      lines.push(data.toString('utf8', start, stop));
      start = end + 1;
    }
    this.tail = start < data.length ? Buffer.from(data.subarray(start)) : Buffer.alloc(0);
    return lines;
  }

  /** Bytes of the line still incomplete (a guard against an endless line). */
  get pendingBytes(): number {
    return this.tail.length;
  }

  /** What is left when the stream ends without a final newline. */
  end(): string | undefined {
    if (this.tail.length === 0) return undefined;
    const last = this.tail.toString('utf8');
    this.tail = Buffer.alloc(0);
    return last;
  }
}
