// Reads a command's input: a file path, or standard input for `-` (or no argument).
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { McpLdError } from '../core/problem.js';
import { decodeUtf8, invalidUtf8Offset } from '../core/utf8.js';
import { inputKindNames, rdfKinds, sniffInputKind } from '../lift/input-kind.js';

/** The input as text; bytes that are not UTF-8 are refused with their offset and line, never replaced. */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<string> {
  const bytes = await readInputBytes(file, stdin);
  const bad = invalidUtf8Offset(bytes);
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < bad; i = bytes.indexOf(10, i + 1)) line++;
  return decodeUtf8(bytes, 0, bad >= 0 ? line : undefined);
}

function unreadable(file: string, error: unknown): McpLdError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (error as Error).message;
  return McpLdError.of('input.unreadable', { detail: `${file}: ${why}` });
}

/**
 * Refuses, before anything is done, input files that cannot be read (so that nothing is opened or written for them).
 */
export function checkReadable(files: readonly string[]): void {
  for (const file of files) {
    if (file === '-') continue;
    try {
      accessSync(file, constants.R_OK);
      if (statSync(file).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } catch (error) {
      throw unreadable(file, error);
    }
  }
}

/** The input's bytes, for readers that decode it piece by piece (see parseInput). */
export async function readInputBytes(file: string | undefined, stdin: NodeJS.ReadableStream): Promise<Buffer> {
  if (file !== undefined && file !== '-') {
    try {
      return readFileSync(file);
    } catch (error) {
      throw unreadable(file, error);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

function wrongKind(detail: string): McpLdError {
  return McpLdError.of('input.wrong-kind', { detail });
}

/**
 * Refuses, once, input of a kind the command does not read (instead of an error on each of its lines): RDF given to
 * `convert` or `ingest`, MCP messages given to `lower`, Turtle given to `lower` as N-Quads.
 */
export function refuseWrongKind(
  file: string | undefined,
  bytes: Uint8Array | string,
  command: 'convert' | 'ingest' | 'lower',
  lowerFormat?: 'nquads' | 'trig',
): void {
  const kind = sniffInputKind(bytes);
  if (kind === undefined) return;
  const name = file === undefined || file === '-' ? 'stdin' : file;
  if (command !== 'lower' && rdfKinds.has(kind)) {
    const hint =
      kind === 'turtle' || kind === 'nquads'
        ? 'did you mean lower?'
        : 'lower reads the N-Quads or TriG that convert writes';
    throw wrongKind(`${name} looks like ${inputKindNames[kind]}; ${command} reads MCP JSON/JSONL — ${hint}`);
  }
  if (command !== 'lower') return;
  if (kind === 'mcp-json' || kind === 'mcp-jsonl')
    throw wrongKind(
      `${name}: this is ${inputKindNames[kind]}; lower reads the N-Quads or TriG that convert writes — did you mean convert?`,
    );
  if (kind === 'turtle' && lowerFormat === 'nquads')
    throw wrongKind(
      `${name} looks like Turtle or TriG, not N-Quads: pass --format trig (lower reads N-Quads unless the file ends in .trig)`,
    );
  if (kind === 'rdfxml' || kind === 'jsonld')
    throw wrongKind(`${name} looks like ${inputKindNames[kind]}; lower reads the N-Quads or TriG that convert writes`);
}
