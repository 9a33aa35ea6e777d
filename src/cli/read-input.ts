// Reads a command's input: a file path, or standard input for `-` (or no argument).
import { readFileSync } from 'node:fs';
import { McpLdError } from '../core/problem.js';

export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<string> {
  return (await readInputBytes(file, stdin)).toString('utf8');
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
