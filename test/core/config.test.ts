// The configuration read from flags and the environment: numbers are plain decimal digits, or a clear refusal.
import assert from 'node:assert/strict';
import { ConfigError, readServiceConfig, readStoreConfig } from '../../src/core/config.js';

describe('configuration', () => {
  it('takes a port and limits written as decimal digits', () => {
    const config = readServiceConfig({ port: '8081' }, { MCPLD_BODY_LIMIT: '2048' });
    assert.equal(config.port, 8081);
    assert.equal(config.bodyLimit, 2048);
    assert.equal(readServiceConfig({ port: '0' }, {}).port, 0, 'port 0: any free port, asked for in full');
  });

  it('refuses an empty port (--port=) instead of taking it as 0, and hex, exponents and signs', () => {
    for (const port of ['', ' ', '0x50', '8e3', '+80', '80.0', '65536']) {
      assert.throws(
        () => readServiceConfig({ port }, {}),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.equal(error.message, `port must be an integer from 0 to 65535, not "${port}"`);
          return true;
        },
      );
    }
  });

  it('refuses a limit that is empty or not plain digits, naming the variable', () => {
    for (const value of ['', '1e6', '0x100', '-5', '0']) {
      assert.throws(
        () => readStoreConfig({}, { MCPLD_MAX_QUADS: value }),
        new ConfigError(`MCPLD_MAX_QUADS must be a positive integer, not "${value}"`),
      );
    }
  });
});
