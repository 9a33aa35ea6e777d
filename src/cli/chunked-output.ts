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

  private async pushAfterFlush(text: string): Promise<void> {
    await this.flush();
    // A text that can never fit goes out on its own.
    if (text.length * 3 > this.buffer.length) return write(this.stream, text);
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /**
   * Takes a text given in pieces (their concatenation; a piece of bytes is UTF-8), copying each into the buffer:
   * joining them into a string first would copy every character once more. A promise only when the buffer had to go
   * out on the way. Pieces must not split a surrogate pair (each string is encoded on its own).
   */
  pushPieces(pieces: readonly (string | Uint8Array)[]): void | Promise<void> {
    const buffer = this.buffer;
    let used = this.used;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (typeof piece === 'string') {
        if (used + piece.length * 3 > buffer.length) {
          this.used = used;
          return this.pushPiecesAfterFlush(pieces, i);
        }
        used += buffer.write(piece, used, 'utf8');
      } else {
        if (used + piece.length > buffer.length) {
          this.used = used;
          return this.pushPiecesAfterFlush(pieces, i);
        }
        buffer.set(piece, used);
        used += piece.length;
      }
    }
    this.used = used;
  }

  private async pushPiecesAfterFlush(pieces: readonly (string | Uint8Array)[], from: number): Promise<void> {
    await this.flush();
    for (let i = from; i < pieces.length; i++) {
      const piece = pieces[i]!;
      const size = typeof piece === 'string' ? piece.length * 3 : piece.length;
      if (this.used + size > this.buffer.length) await this.flush();
      // A piece that can never fit goes out on its own.
      if (size > this.buffer.length) await write(this.stream, piece);
      else if (typeof piece === 'string') this.used += this.buffer.write(piece, this.used, 'utf8');
      else {
        this.buffer.set(piece, this.used);
        this.used += piece.length;
      }
    }
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.buffer.subarray(0, this.used);
    if (!this.reuseBuffer) this.buffer = Buffer.allocUnsafe(this.buffer.length);
    await write(this.stream, chunk);
    this.used = 0;
  }
}
