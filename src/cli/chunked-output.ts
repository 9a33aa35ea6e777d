// Encodes output text into a byte buffer and writes it out whenever the buffer fills, waiting for the stream to
// drain: large conversions go out as they are produced, without ever joining them into one big string.
import { write } from './command.js';

interface ChunkedOutputOptions {
  chunkSize?: number;
  /**
   * The stream is done with a chunk once its write callback has run (process.stdout: written to the file, pipe or
   * terminal), so one buffer serves every chunk. Otherwise each chunk is a fresh buffer, since a stream may keep
   * what it is given. A fresh buffer costs its page faults: about 2 ms a MiB on the machines we measure on.
   */
  reuseBuffer?: boolean;
}

export class ChunkedOutput {
  private buffer: Buffer;
  private used = 0;
  private readonly reuseBuffer: boolean;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    options: ChunkedOutputOptions = {},
  ) {
    this.buffer = Buffer.allocUnsafe(options.chunkSize ?? 1 << 20);
    this.reuseBuffer = options.reuseBuffer ?? false;
  }

  /**
   * Takes `text`; a promise only when the buffer had to go out first. A text that fits returns nothing to await: an
   * await per message costs the conversion loop more than encoding the message does.
   */
  push(text: string): void | Promise<void> {
    // Worst case 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > this.buffer.length) return this.pushAfterFlush(text);
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Takes `texts`, one after the other (see push). */
  pushParts(texts: readonly string[]): void | Promise<void> {
    for (let i = 0; i < texts.length; i++) {
      const pushed = this.push(texts[i]!);
      if (pushed !== undefined) return pushed.then(() => this.pushParts(texts.slice(i + 1)));
    }
  }

  private async pushAfterFlush(text: string): Promise<void> {
    await this.flush();
    // A text that can never fit goes out on its own.
    if (text.length * 3 > this.buffer.length) return write(this.stream, text);
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.buffer.subarray(0, this.used);
    if (!this.reuseBuffer) this.buffer = Buffer.allocUnsafe(this.buffer.length);
    await write(this.stream, chunk);
    this.used = 0;
  }
}
