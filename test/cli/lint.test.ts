import assert from 'node:assert/strict';
import { runCli } from '../helpers/run-cli.js';

describe('cli: lint', () => {
  it('prints one line per defect with its pointer and whether the overlay corrects it, then a summary, and exits 0', async () => {
    const result = await runCli(['lint']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines.at(-1)!, /^lint: \d+ defects: \d+ errors \(\d+ corrected, 0 uncorrected\), \d+ warnings/);
    const tools = lines.find((line) =>
      line.startsWith('/definitions/ListToolsResult/properties/tools  error  iri-shape-conflict  '),
    );
    assert.match(tools ?? '', /-- corrected by overlay: /);
    assert.ok(
      lines.some(
        (line) =>
          line.startsWith('json-rpc:/$defs/IDObject/allOf/1/properties/id  warning  id-on-literal') &&
          line.endsWith('NOT corrected'),
      ),
    );
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
    for (const key of ['document', 'pointer', 'rule', 'severity', 'message', 'corrected'])
      assert.ok(key in defects[0]!, key);
    assert.ok(defects.some((defect) => defect['corrected'] === true && typeof defect['correction'] === 'string'));
  });

  it('--protocol V lints that version; --all lints every version and ends with one summary line per version', async () => {
    const one = await runCli(['lint', '--protocol', '2026-07-28']);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout.trimEnd().split('\n').at(-1)!, /^lint: \d+ defects: /);
    const all = await runCli(['lint', '--all']);
    assert.equal(all.code, 0, all.stderr);
    const summaries = all.stdout.trimEnd().split('\n').slice(-5);
    assert.deepEqual(
      summaries.map((line) => line.split(' ')[0]),
      ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    );
    for (const line of summaries)
      assert.match(line, /^\d{4}-\d{2}-\d{2} lint: \d+ defects: .*; (\d+)\/\1 message properties annotated$/);
    // The seed's own lint is the same whether asked for alone or among all.
    const seed = await runCli(['lint']);
    const seedLines = seed.stdout.trimEnd().split('\n');
    assert.equal(summaries[2], `2025-06-18 ${seedLines.at(-1)}; 224/224 message properties annotated`);
    assert.deepEqual(
      all.stdout
        .split('\n')
        .filter((line) => line.startsWith('2025-06-18 /') || line.startsWith('2025-06-18 json-rpc:')),
      seedLines.slice(0, -1).map((line) => `2025-06-18 ${line}`),
    );
  });

  it('--protocol with a version it does not know exits 2 naming the known ones', async () => {
    const result = await runCli(['lint', '--protocol', '2024-01-01']);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /--protocol 2024-01-01: not a protocol version mcp-ld knows; known versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28/,
    );
    assert.equal((await runCli(['lint', '--all', '--protocol', '2025-06-18'])).code, 2);
  });
});
