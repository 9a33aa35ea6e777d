// The one way tests expect an McpLdError: what a call throws, or what a promise rejects with, failing the test when it
// returns, resolves, or fails with anything else; with the code, status and detail it must have when they are given.
import assert from 'node:assert/strict';
import { McpLdError } from '../../src/core/problem.js';

interface ExpectedError {
  code?: string;
  status?: number;
  detail?: RegExp;
}

function checked(error: unknown, expected: ExpectedError): McpLdError {
  assert.ok(error instanceof McpLdError, `expected an McpLdError, got ${String(error)}`);
  if (expected.code !== undefined) assert.equal(error.code, expected.code, error.detail);
  if (expected.status !== undefined) assert.equal(error.status, expected.status, error.detail);
  if (expected.detail !== undefined) assert.match(error.detail, expected.detail);
  return error;
}

/** The McpLdError `run` throws. */
export function thrownError(run: () => unknown, expected: ExpectedError = {}): McpLdError {
  try {
    run();
  } catch (error) {
    return checked(error, expected);
  }
  assert.fail(`expected an McpLdError${expected.code ? ` (${expected.code})` : ''}, but nothing was thrown`);
}

/** The McpLdError `promise` rejects with. */
export async function rejectedError(promise: Promise<unknown>, expected: ExpectedError = {}): Promise<McpLdError> {
  try {
    await promise;
  } catch (error) {
    return checked(error, expected);
  }
  assert.fail(`expected a rejection with an McpLdError${expected.code ? ` (${expected.code})` : ''}, but it resolved`);
}
