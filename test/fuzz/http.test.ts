// Fuzz: POST /convert and POST /ingest on one real `mcp-ld serve`, with generated bodies (a message, pretty-printed,
// a batch, or NDJSON lines). Invariants: never a 5xx; every 4xx is problem+json; what must be refused is, by line; an
// ingest that is refused leaves the store as it was; what /convert answers is N-Quads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Parser } from 'n3';
import { startService, type Service } from '../helpers/service.js';
import { assertNoServerError, deleteSessions, send, stopService, storeSize } from './http-checks.js';
import { expectation, fuzzInput, fuzzLines, isBlankLine, linesBody, type FuzzInput } from './inputs.js';
import { check, Tally } from './settings.js';

type Body = { kind: 'whole'; input: FuzzInput } | { kind: 'lines'; inputs: FuzzInput[] };

const body: fc.Arbitrary<Body> = fc.oneof(
  fuzzInput(['line', 'pretty', 'batch']).map((input): Body => ({ kind: 'whole', input })),
  fuzzLines(10).map((inputs): Body => ({ kind: 'lines', inputs })),
);

const token = 'fuzz-token';

describe('fuzz: POST /convert and /ingest on a real mcp-ld serve', function () {
  this.timeout(1_800_000);
  let service: Service;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-fuzz-http-'));
    service = await startService(['--data', path.join(dir, 'data')], { MCPLD_WRITE_TOKEN: token });
  });
  after(async () => {
    await stopService(service);
    rmSync(dir, { recursive: true, force: true });
  });

  it('never answers 5xx, answers problem+json for 4xx, refuses by line, and a refused ingest stores nothing', async () => {
    const statuses = new Tally();
    const property = fc.asyncProperty(body, async (generated) => {
      const whole = generated.kind === 'whole';
      const bytes = whole ? generated.input.bytes : linesBody(generated.inputs);
      const type = whole ? 'application/json' : 'application/x-ndjson';
      // NDJSON: line 1 is the valid first line; input i is on line i + 2.
      const mustRefuse = whole
        ? []
        : generated.inputs.flatMap((input, i) =>
            expectation(input, 'line').refused && !isBlankLine(input.bytes) ? [i + 2] : [],
          );
      const wholeRefused = whole && expectation(generated.input, 'whole').refused !== undefined;
      const headers = { 'content-type': type, 'mcp-ld-session': 'fuzz', authorization: `Bearer ${token}` };

      const converted = await send(`${service.url}/convert?session=fuzz`, {
        method: 'POST',
        headers,
        body: new Uint8Array(bytes),
      });
      statuses.add(`convert ${converted.status}`);
      assertNoServerError(converted, 'POST /convert');
      if (wholeRefused || mustRefuse.length > 0)
        assert.equal(converted.status, 400, 'POST /convert refuses a body with a line it must refuse');
      if (converted.status === 200) new Parser({ format: 'N-Quads' }).parse(converted.body.toString());
      else if (mustRefuse.length > 0) {
        const listed = (JSON.parse(converted.body.toString()) as { errors: { line: number }[] }).errors.map(
          (e) => e.line,
        );
        for (const line of mustRefuse) assert.ok(listed.includes(line), `POST /convert lists line ${line}`);
      }

      const before = await storeSize(service);
      const ingested = await send(`${service.url}/ingest`, { method: 'POST', headers, body: new Uint8Array(bytes) });
      statuses.add(`ingest ${ingested.status}`);
      assertNoServerError(ingested, 'POST /ingest');
      if (wholeRefused) assert.equal(ingested.status, 400, 'POST /ingest refuses what it must');
      if (ingested.status >= 400)
        assert.equal(await storeSize(service), before, 'a refused ingest leaves the store as it was');
      else {
        const summary = JSON.parse(ingested.body.toString()) as { errors: { line: number }[]; sessions: string[] };
        for (const line of mustRefuse)
          assert.ok(
            summary.errors.some((e) => e.line === line),
            `POST /ingest reports line ${line}`,
          );
        await deleteSessions(service, summary.sessions, token);
      }
    });
    // One service for every run: its time per run grows with the runs before it (48 ms over 600 runs, 90 ms over
    // 2,000, measured), so `npm run fuzz` makes 10 times as many, not 25.
    await check('http /convert + /ingest', property, 200, statuses, 2000);
  });
});
