// Reads a command's input: a file path, or standard input for `-` (or no argument).
import { readFile } from 'node:fs/promises';
import { McpLdError } from '../core/problem.js';

export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file !== undefined && file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new McpLdError({ code: 'input.unreadable', status: 400, title: 'Cannot read input', detail: `${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` });
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
