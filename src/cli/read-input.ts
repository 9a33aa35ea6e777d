// Reads a command's input: a file path, or standard input for `-` (or no argument).
import { readFileSync } from 'node:fs';
import { McpLdError } from '../core/problem.js';
import { decodeUtf8, invalidUtf8Offset } from '../core/utf8.js';

/** The input as text; bytes that are not UTF-8 are refused with their offset and line, never replaced. */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<string> {
  const bytes = await readInputBytes(file, stdin);
  const bad = invalidUtf8Offset(bytes);
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < bad; i = bytes.indexOf(10, i + 1)) line++;
  return decodeUtf8(bytes, 0, bad >= 0 ? line : undefined);
}

/** The input's bytes, for readers that decode it piece by piece (see parseInput). */
export async function readInputBytes(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<Buffer> {
  if (file !== undefined && file !== '-') {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new McpLdError({ code: 'input.unreadable', status: 400, title: 'Cannot read input', detail: `${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` });
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
