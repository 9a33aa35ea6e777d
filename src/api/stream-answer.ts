// The body of an answer streamed from the store to the client (quad-store.ts, ResultStream): the head of its format,
// each chunk written in that format (off the event loop when large, offload.ts) as the client takes it, the tail. The
// next chunk is asked of the store only when the client has read the one before (the socket's backpressure); a
// client that goes away closes the stream, and the store lets the answer go.
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { ResultStream } from '../store/quad-store.js';
import { streamHead, streamTail, type ResultFormat } from '../query/index.js';
import type { Offload } from './offload.js';

/** `graph`: the triples are a session's, written in its graph (N-Quads of GET /sessions/{id}). */
export function streamBody(stream: ResultStream, format: ResultFormat, offload: Offload, graph?: string): Readable {
  const { form, variables } = stream;
  // One blank node prefix for the whole answer: a blank node in two chunks is one node.
  const blankNodePrefix = `b${randomBytes(4).toString('hex')}_`;
  async function* pieces(): AsyncGenerator<Buffer> {
    let finished = false;
    try {
      yield Buffer.from(await streamHead(form, variables, format));
      let after = false;
      for (let data = await stream.next(); data; data = await stream.next()) {
        const rows = await offload.chunk({
          form,
          variables,
          data,
          format,
          after,
          blankNodePrefix,
          ...(graph ? { graph } : {}),
        });
        if (rows.length === 0) continue;
        after = true;
        yield rows;
      }
      yield Buffer.from(await streamTail(form, variables, format));
      finished = true;
    } finally {
      if (!finished) await stream.close();
    }
  }
  return Readable.from(pieces(), { objectMode: false, highWaterMark: 1 });
}
