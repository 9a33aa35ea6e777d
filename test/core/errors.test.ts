// The error catalogue: every code once with its status and title, and errors made from it carrying what they carry.
import assert from 'node:assert/strict';
import { errorCatalogue, isErrorCode } from '../../src/core/errors.js';
import { McpLdError } from '../../src/core/problem.js';

describe('core: the error catalogue', () => {
  it('gives every code, named stage.kind, an HTTP error status and a title', () => {
    for (const [code, { status, title }] of Object.entries(errorCatalogue)) {
      assert.match(code, /^[a-z]+\.[a-z0-9-]+$/, code);
      assert.ok(status >= 400 && status <= 599, `${code}: ${status}`);
      assert.ok(title.length > 0 && title[0] === title[0]!.toUpperCase(), `${code}: ${title}`);
    }
    assert.ok(isErrorCode('input.malformed-json'));
    assert.ok(!isErrorCode('toString'), 'only the catalogue’s own keys are codes');
  });

  it('makes an error from its code: the catalogue’s status and title, the fields and extensions given', () => {
    const error = McpLdError.of('input.line-too-long', { detail: 'line 3 is too long', line: 3 });
    assert.deepEqual(
      [error.code, error.status, error.title, error.detail, error.line],
      ['input.line-too-long', 413, 'Line too long', 'line 3 is too long', 3],
    );
    assert.equal(error.message, 'Line too long: line 3 is too long');
    const stored = { quads: 10, batches: 1, messages: 2 };
    assert.equal(error.extend({ stored }), error);
    error.extend({ errors: [{ line: 1, title: 'Malformed JSON', detail: 'x' }] });
    assert.deepEqual(error.extensions, { stored, errors: [{ line: 1, title: 'Malformed JSON', detail: 'x' }] });
  });
});
