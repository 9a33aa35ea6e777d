// The one error type of the core. Stages throw it, made from its code in the catalogue (errors.ts); the API turns it
// into application/problem+json and the CLI into a message on stderr and an exit code. Nothing here knows about HTTP
// or terminals.
import { errorCatalogue, type ErrorCode } from './errors.js';

/** What a problem may carry besides its details: an input's failed lines, what an ingest stored before it failed. */
export interface ProblemExtensions {
  /** Every failed input line (up to a limit), when there are several. */
  errors?: { line: number; index?: number; title: string; detail: string }[];
  /** What was stored before an ingest failed (nothing after it). */
  stored?: { quads: number; batches: number; messages: number };
}

/** What a call site gives: the catalogue gives the status and the title. */
export interface ErrorFields {
  detail: string;
  pointer?: string;
  line?: number;
  retryAfter?: number;
  extensions?: ProblemExtensions;
}

export interface ProblemDetails {
  /** Stable machine-readable code, e.g. `schema.ref-unresolved`. */
  code: string;
  /** HTTP status the API answers with (the CLI ignores it). */
  status: number;
  /** Short, human-readable summary of the kind of problem. */
  title: string;
  /** What exactly is wrong with this input. */
  detail: string;
  /** JSON pointer into the offending document, when there is one. */
  pointer?: string;
  /** 1-based line number in the offending input, when there is one. */
  line?: number;
  /** Seconds after which the same request may succeed (busy, or briefly unavailable): the API's Retry-After. */
  retryAfter?: number;
  extensions?: ProblemExtensions;
}

export class McpLdError extends Error implements ProblemDetails {
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly retryAfter?: number;
  extensions?: ProblemExtensions;

  /** The error of `code`, with the status and title the catalogue gives it. */
  static of(code: ErrorCode, fields: ErrorFields): McpLdError {
    const { status, title } = errorCatalogue[code];
    return new McpLdError({ code, status, title, ...fields });
  }

  /** A problem given whole: one that crossed a thread or process as data, or one re-worded from another. */
  constructor(problem: ProblemDetails) {
    super(`${problem.title}: ${problem.detail}`);
    this.name = 'McpLdError';
    this.code = problem.code;
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    if (problem.pointer !== undefined) this.pointer = problem.pointer;
    if (problem.line !== undefined) this.line = problem.line;
    if (problem.retryAfter !== undefined) this.retryAfter = problem.retryAfter;
    if (problem.extensions !== undefined) this.extensions = problem.extensions;
  }

  /** Adds to what the problem carries (the failed lines, what was stored), and gives the error back to be thrown. */
  extend(extensions: ProblemExtensions): this {
    this.extensions = { ...this.extensions, ...extensions };
    return this;
  }
}

export function isMcpLdError(error: unknown): error is McpLdError {
  return error instanceof McpLdError;
}
