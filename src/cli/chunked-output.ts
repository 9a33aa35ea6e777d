// Buffers output text and writes it in chunks, waiting for the stream to drain: large conversions go out as they
// are produced instead of as one string at the end.
import { write } from './command.js';

export class ChunkedOutput {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly chunkSize = 1 << 20,
  ) {}

  async push(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.chunkSize) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.size === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await write(this.stream, text);
  }
}
