// Output of large conversions goes out in chunks: every byte in order whether or not one buffer is reused, and
// a reused buffer is only written into again once the stream has called back for the chunk before.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ChunkedOutput } from '../../src/cli/chunked-output.js';

/** A stream that takes its time: it reads each chunk only when it calls back, as a file or a pipe would. */
function slowStream(received: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        received.push(Buffer.from(chunk));
        callback();
      }, 2);
    },
  });
}

describe('cli: chunked output', () => {
  for (const reuseBuffer of [false, true]) {
    it(`writes every text in order through small chunks (${reuseBuffer ? 'one reused buffer' : 'a fresh buffer a chunk'})`, async () => {
      const received: Buffer[] = [];
      const output = new ChunkedOutput(slowStream(received), { chunkSize: 64, reuseBuffer });
      const texts = Array.from({ length: 200 }, (_, i) => `<urn:x:${i}> <urn:p> "naïve ☃ ${'z'.repeat(i % 40)}" .\n`);
      texts.push('a text longer than a chunk: '.repeat(10) + '\n');
      for (const text of texts) await output.push(text);
      await output.flush();
      assert.equal(Buffer.concat(received).toString('utf8'), texts.join(''));
    });

    it(`writes the parts of each text in order (${reuseBuffer ? 'one reused buffer' : 'a fresh buffer a chunk'})`, async () => {
      const received: Buffer[] = [];
      const output = new ChunkedOutput(slowStream(received), { chunkSize: 64, reuseBuffer });
      const texts = Array.from({ length: 60 }, (_, i) =>
        Array.from({ length: i % 5 }, (_, k) => `<urn:x:${i}> <urn:p> "part ${k} ☃ ${'z'.repeat(i % 30)}" .\n`),
      );
      for (const parts of texts) await output.pushParts(parts);
      await output.flush();
      assert.equal(Buffer.concat(received).toString('utf8'), texts.flat().join(''));
    });
  }
});
