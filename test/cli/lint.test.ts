import assert from 'node:assert/strict';
import { runCli } from '../helpers/run-cli.js';

describe('cli: lint', () => {
  it('prints one line per defect with its pointer and whether the overlay corrects it, then a summary, and exits 0', async () => {
    const result = await runCli(['lint']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines.at(-1)!, /^lint: \d+ defects: \d+ errors \(\d+ corrected, 0 uncorrected\), \d+ warnings/);
    const tools = lines.find((line) => line.startsWith('/definitions/ListToolsResult/properties/tools  error  iri-shape-conflict  '));
    assert.match(tools ?? '', /-- corrected by overlay: /);
    assert.ok(lines.some((line) => line.startsWith('json-rpc:/$defs/IDObject/allOf/1/properties/id  warning  id-on-literal') && line.endsWith('NOT corrected')));
  });

  it('--strict exits 0 with the overlay and 1 with --no-overlay', async () => {
    assert.equal((await runCli(['lint', '--strict'])).code, 0);
    const raw = await runCli(['lint', '--strict', '--no-overlay']);
    assert.equal(raw.code, 1);
    assert.match(raw.stdout, /errors \(0 corrected, \d+ uncorrected\)/);
  });

  it('--json prints the defects as a JSON array', async () => {
    const result = await runCli(['lint', '--json']);
    assert.equal(result.code, 0);
    const defects = JSON.parse(result.stdout) as Record<string, unknown>[];
    assert.ok(Array.isArray(defects) && defects.length > 0);
    for (const key of ['document', 'pointer', 'rule', 'severity', 'message', 'corrected']) assert.ok(key in defects[0]!, key);
    assert.ok(defects.some((defect) => defect['corrected'] === true && typeof defect['correction'] === 'string'));
  });
});
