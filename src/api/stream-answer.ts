// The body of an answer handed over by the store a chunk at a time (quad-store.ts, ResultStream): the head of its
// format, each chunk as the store wrote it when that is its text in the format asked (passThrough), else written in
// that format (off the event loop when large, offload.ts), as the client takes it, the tail; a small answer, every
// row in its first chunk, as one body. The next chunk is asked of the store only when the client has read the one
// before (the socket's backpressure); a client that goes away closes the stream, and the store lets the answer go.
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { ResultStream } from '../store/quad-store.js';
import { passThrough, streamHead, streamTail, type ResultFormat } from '../query/index.js';
import type { Offload } from './offload.js';

/**
 * The answer to send: a small one (every row in its first chunk) as one body with its length, a large one streamed.
 * `graph`: the triples are a session's, written in its graph (N-Quads of GET /sessions/{id}).
 */
export async function answerBody(
  stream: ResultStream,
  format: ResultFormat,
  offload: Offload,
  graph?: string,
): Promise<Buffer | Readable> {
  if (!stream.whole)
    return Readable.from(answerPieces(stream, format, offload, graph), { objectMode: false, highWaterMark: 1 });
  const pieces: Buffer[] = [];
  for await (const piece of answerPieces(stream, format, offload, graph)) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** The head of the answer's format, each chunk written in that format as it is asked for, the tail. */
async function* answerPieces(
  stream: ResultStream,
  format: ResultFormat,
  offload: Offload,
  graph: string | undefined,
): AsyncGenerator<Buffer> {
  const { form, variables } = stream;
  // One blank node prefix for the whole answer: a blank node in two chunks is one node.
  const blankNodePrefix = `b${randomBytes(4).toString('hex')}_`;
  let finished = false;
  try {
    yield Buffer.from(await streamHead(form, variables, format));
    let after = false;
    for (let data = await stream.next(); data; data = await stream.next()) {
      const request = { form, variables, data, format, after, blankNodePrefix, ...(graph ? { graph } : {}) };
      const pieces = passThrough(request) ?? [await offload.chunk(request)];
      for (const piece of pieces) {
        if (piece.length === 0) continue;
        after = true;
        yield piece;
      }
    }
    yield Buffer.from(await streamTail(form, variables, format));
    finished = true;
  } finally {
    if (!finished) await stream.close();
  }
}
