// The one error type of the core. Stages throw it; the API turns it into application/problem+json and the CLI
// into a message on stderr and an exit code. Nothing here knows about HTTP or terminals.

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
}

export class McpLdError extends Error implements ProblemDetails {
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly retryAfter?: number;

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
  }
}

export function isMcpLdError(error: unknown): error is McpLdError {
  return error instanceof McpLdError;
}
