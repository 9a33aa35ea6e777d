// Encodes output text into a reusable byte buffer and writes it out whenever the buffer fills, waiting for the
// stream to drain: large conversions go out as they are produced, without ever joining them into one big string.
import { write } from './command.js';

export class ChunkedOutput {
  private buffer: Buffer;
  private used = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    chunkSize = 1 << 20,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkSize);
  }

  async push(text: string): Promise<void> {
    // Worst case 3 bytes per UTF-16 unit; a text that can never fit goes out on its own.
    if (this.used + text.length * 3 > this.buffer.length) {
      await this.flush();
      if (text.length * 3 > this.buffer.length) return write(this.stream, text);
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(this.buffer.length); // the written chunk stays the stream's until it is flushed
    this.used = 0;
    await write(this.stream, chunk);
  }
}
