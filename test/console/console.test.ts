// The web console in a real browser (Debian's chromium, driven by puppeteer-core) against a real `mcp-ld serve` with
// the corpus captures ingested: every view shows the figures the named queries give for the same data, a clicked
// message's JSON is the message as captured, the SPARQL editor runs a query, a page updates live on POST /ingest, no
// request leaves the loopback address or writes, nothing logs an error, and axe finds no serious or critical
// accessibility violation. Screenshots of every view go to MCPLD_SCREENSHOTS (default: a folder in the temp dir).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { captureFiles, captureRecords, captures } from '../helpers/corpus.js';
import { launchChromium } from '../helpers/chromium.js';
import { startService, type Service } from '../helpers/service.js';

type Row = Record<string, string | number | boolean | undefined>;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const screenshots = process.env['MCPLD_SCREENSHOTS'] || path.join(os.tmpdir(), 'mcp-ld-console-screenshots');
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Figures as the console writes them (console/src/format.ts). */
const count = (n: unknown) => integer.format(n as number);
const percent = (rate: unknown) => `${decimal.format((rate as number) * 100)}%`;
const millis = (ms: unknown) =>
  typeof ms !== 'number' ? '–' : ms < 1000 ? `${decimal.format(ms)} ms` : `${decimal.format(ms / 1000)} s`;

describe('console: the web console in a real browser, against the corpus', function () {
  this.timeout(300_000);
  let service: Service;
  let browser: Browser | undefined;
  let page: Page;
  let loads = 0;
  const outside: string[] = [];
  const methods = new Set<string>();
  const errors: string[] = [];
  const everything = captures.find((c) => c.file === 'traffic-everything.jsonl')!;
  const everythingRecords = captureRecords(everything.file);
  const everythingId = everythingRecords[0]!.session!;

  const api = async (name: string, params: Record<string, string | number> = {}): Promise<Row[]> => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    const response = await fetch(`${service.url}/queries/${name}${query ? `?${query}` : ''}`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(response.status, 200, `${name}: ${await response.clone().text()}`);
    return (await response.json()) as Row[];
  };

  /** Loads the page afresh at a view and waits until the view has drawn. */
  const open = async (hash: string) => {
    loads += 1;
    await page.goto(`${service.url}/?load=${loads}${hash}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(
      () => document.body.dataset['ready'] !== undefined && document.querySelector('.view[aria-busy="false"]') !== null,
      { timeout: 60_000 },
    );
  };
  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
  const text = async (selector: string) => (await page.$eval(selector, (n) => (n.textContent ?? '').trim())) as string;

  /** axe's serious and critical violations on the page as it is, and a screenshot of it. */
  const audit = async (name: string) => {
    await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
    await page.evaluate(axeSource);
    const violations = (await page.evaluate(async () => {
      const result = await (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: unknown,
            ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      }));
    })) as { id: string; impact: string; help: string; targets: string[] }[];
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], `${name}: accessibility violations`);
  };

  before(async function () {
    browser = await launchChromium();
    if (!browser) return this.skip();
    mkdirSync(screenshots, { recursive: true });
    console.log(`      screenshots of the console: ${screenshots}`);
    service = await startService();
    for (const file of captureFiles()) {
      const response = await fetch(`${service.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: readFileSync(file),
      });
      assert.equal(response.status, 200, await response.text());
    }
    page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return void request.continue();
      methods.add(request.method());
      if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') {
        outside.push(request.url());
        return void request.abort();
      }
      void request.continue();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url ?? ''})`);
    });
    page.on('pageerror', (error) => errors.push(String(error)));
  });

  after(async () => {
    await browser?.close();
    service?.child.kill();
  });

  it('Overview: the totals of the overview query, its activity as charts, the protocol versions in use', async () => {
    await open('#/overview');
    const [totals] = await api('overview');
    assert.equal(await text('[data-figure="sessions"] .figure-value'), count(totals!['sessions']));
    assert.equal(totals!['sessions'], captures.length, 'one session per capture');
    const messages = captures.reduce((n, c) => n + captureRecords(c.file).length, 0);
    assert.equal(await text('[data-figure="messages"] .figure-value'), count(messages));
    assert.equal(totals!['messages'], messages);
    assert.equal(await text('[data-figure="servers"] .figure-value'), count(totals!['servers']));
    assert.equal(await text('[data-figure="clients"] .figure-value'), count(totals!['clients']));
    assert.equal(await text('[data-figure="error-rate"] .figure-value'), percent(totals!['errorRate']));
    assert.equal((await page.$$('.charts svg.chart')).length, 3);
    const versions = await api('protocol-versions');
    assert.deepEqual(
      await texts('[data-view="overview"] td[data-column="version"]'),
      versions.map((r) => String(r['version'])),
    );
    await audit('overview');
  });

  it('Overview: a time range narrows every figure to the window, as the named queries do', async () => {
    const window = { since: '2026-12-01T17:41:00Z', until: '2026-12-01T17:42:00Z' };
    await open(`#/overview?range=custom&since=${window.since}&until=${window.until}`);
    const [totals] = await api('overview', window);
    assert.equal(await text('[data-figure="messages"] .figure-value'), count(totals!['messages']));
    assert.ok((totals!['messages'] as number) > 0 && (totals!['messages'] as number) < 600);
    const activity = await api('activity', { ...window, bucket: 'minute' });
    assert.equal((await page.$$('.charts figure:first-child circle')).length, activity.length);
  });

  it('Sessions: one row per session, as session-list gives them, sortable by the service', async () => {
    await open('#/sessions');
    const list = await api('session-list', { sort: 'start', descending: 'true' });
    assert.deepEqual(
      await page.$$eval('tr[data-session]', (rows) => rows.map((r) => r.getAttribute('data-session'))),
      list.map((r) => r['sessionId']),
    );
    assert.equal(await text('[data-figure="session-range"]'), `Sessions 1–${captures.length} of ${captures.length}`);
    assert.deepEqual(
      await texts('td[data-column="messages"]'),
      list.map((r) => count(r['messages'])),
    );
    assert.deepEqual(
      await texts('td[data-column="errors"]'),
      list.map((r) => count(r['errors'])),
    );
    await audit('sessions');
    // Sorting is the service's: clicking "Messages" asks session-list for it.
    await page.click('th button.sort[aria-label^="Sort by messages"]');
    await page.waitForFunction(
      () => location.hash.includes('sort=messages') && document.querySelector('.view[aria-busy="false"]') !== null,
    );
    await page.waitForFunction(() => document.querySelector('th[aria-sort]')?.textContent?.includes('Messages'));
    const byMessages = await api('session-list', { sort: 'messages', descending: 'true' });
    assert.deepEqual(
      await page.$$eval('tr[data-session]', (rows) => rows.map((r) => r.getAttribute('data-session'))),
      byMessages.map((r) => r['sessionId']),
    );
    // A filter is in the URL: a link to share.
    await open('#/sessions?protocol=2025-11-25');
    assert.equal((await page.$$('tr[data-session]')).length, 2);
  });

  it('Session: its messages in order between the lanes, and a clicked message is its JSON as captured', async () => {
    await open(`#/session?id=${everythingId}`);
    const timeline = await api('session-timeline', { session: everythingId, limit: 200 });
    assert.equal(await text('[data-figure="messages"] .figure-value'), count(everythingRecords.length));
    const orders = await page.$$eval('li.msg', (rows) => rows.map((r) => Number(r.getAttribute('data-order'))));
    assert.deepEqual(
      orders,
      timeline.map((r) => r['order']),
    );
    assert.equal(orders.length, 200, 'a page of 200 of its 220 messages');
    assert.deepEqual(
      orders,
      everythingRecords.slice(0, 200).map((r) => r.seq),
      'in capture order',
    );
    assert.ok((await page.$$('li.msg.failed')).length > 0, 'errors are marked');
    assert.ok((await page.$$('li.msg.tool-error')).length > 0, 'isError results are marked');
    for (const seq of [
      1,
      2,
      everythingRecords.find((r) => r.msg && (r.msg as { method?: string }).method === 'tools/call')!.seq!,
    ]) {
      await page.click(`li.msg[data-order="${seq}"] button.arrow-cell`);
      await page.waitForFunction(
        (s) =>
          document.querySelector('#message-title')?.textContent === `Message #${s}` &&
          document.querySelector('pre[data-wire="msg"]') !== null,
        {},
        seq,
      );
      const shown = JSON.parse(await text('pre[data-wire="msg"]'));
      assert.deepEqual(shown, everythingRecords.find((r) => r.seq === seq)!.msg, `message ${seq}`);
    }
    await page.waitForSelector('table.triples a.term');
    await audit('session');
    // The triples link to the vocabulary.
    const term = await page.$eval('table.triples a.term', (a) => a.textContent);
    await page.click('table.triples a.term');
    await page.waitForFunction((t) => document.querySelector(`[data-term="${t}"]`) !== null, {}, term);
    // The next page: the last 20 messages.
    await open(`#/session?id=${everythingId}&from=201`);
    assert.deepEqual(
      await page.$$eval('li.msg', (rows) => rows.map((r) => Number(r.getAttribute('data-order')))),
      everythingRecords.slice(200).map((r) => r.seq),
    );
  });

  it('Session: every message of every capture, clicked, is deep-equal to the message on the wire', async () => {
    for (const { file } of captures.filter((c) => c.file !== 'traffic-everything.jsonl')) {
      const records = captureRecords(file);
      const id = records[0]!.session!;
      await open(`#/session?id=${id}`);
      for (const record of records.slice(0, 200)) {
        await page.click(`li.msg[data-order="${record.seq}"] button.arrow-cell`);
        await page
          .waitForFunction(
            (s) =>
              document.querySelector('#message-title')?.textContent === `Message #${s}` &&
              document.querySelector('pre[data-wire="msg"]') !== null,
            { timeout: 10_000 },
            record.seq,
          )
          .catch(async (error) => {
            throw new Error(
              `${file} message ${record.seq}: ${await page.$eval('aside.detail', (a) => a.textContent)}: ${error}`,
            );
          });
        assert.deepEqual(JSON.parse(await text('pre[data-wire="msg"]')), record.msg, `${file} message ${record.seq}`);
      }
    }
  });

  it('Tools: calls, error rate and p50/p95 per server and tool as the named queries give them; a tool’s histogram', async () => {
    await open('#/tools');
    const [calls, rates, latency] = await Promise.all([api('tool-calls'), api('tool-errors'), api('tool-latency')]);
    assert.deepEqual(
      await page.$$eval('tr[data-tool]', (rows) => rows.map((r) => r.getAttribute('data-tool'))),
      calls.map((r) => `${r['server'] ?? ''}/${r['tool']}`),
    );
    const cell = (tool: string, column: string) => text(`tr[data-tool="${tool}"] td[data-column="${column}"]`);
    for (const rate of rates) {
      const key = `${rate['server'] ?? ''}/${rate['tool']}`;
      assert.equal(await cell(key, 'calls'), count(rate['calls']), key);
      assert.equal(await cell(key, 'error-rate'), percent(rate['errorRate']), key);
    }
    for (const row of latency)
      assert.equal(await cell(`${row['server'] ?? ''}/${row['tool']}`, 'p95'), millis(row['p95Ms']));
    await audit('tools');
    await open('#/tools?server=everything&tool=echo');
    await page.waitForSelector('#tool-title');
    const histogram = (await api('tool-latency-histogram', { tool: 'echo' })).filter(
      (r) => r['server'] === 'everything',
    );
    const bounds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, Infinity];
    const used = histogram.map((r) => bounds.indexOf((r['upToMs'] as number | undefined) ?? Infinity));
    assert.equal(
      (await page.$$('.tool-detail svg rect.bar')).length,
      Math.max(...used) - Math.min(...used) + 1,
      'a bar per range from the fastest to the slowest',
    );
    await page.waitForFunction(
      () => document.querySelector('[data-parameters]')?.getAttribute('data-parameters') !== 'loading',
    );
    const parameters = (await api('tool-parameters', { tool: 'echo' })).filter((r) => r['server'] === 'everything');
    assert.equal(
      await page.$eval('[data-parameters]', (e) => e.getAttribute('data-parameters')),
      String(parameters.length),
    );
    await page.click('[data-changes="closed"] button');
    await page.waitForFunction(
      () => document.querySelector('[data-changes]')?.getAttribute('data-changes') !== 'closed',
    );
    const changes = (await api('tool-schema-changes', { tool: 'echo' })).filter((r) => r['server'] === 'everything');
    assert.equal(await page.$eval('[data-changes]', (e) => e.getAttribute('data-changes')), String(changes.length));
    await audit('tool');
  });

  it('Failures: the groups of the failures query, each linked to one in its session', async () => {
    await open('#/failures');
    const failures = await api('failures');
    assert.equal(
      await text('[data-figure="failures"]'),
      `${count(failures.reduce((n, r) => n + (r['failures'] as number), 0))} failures in ${count(failures.length)} groups.`,
    );
    assert.deepEqual(
      await texts('td[data-column="count"]'),
      failures.map((r) => count(r['failures'])),
    );
    await audit('failures');
    const first = failures[0]!;
    await page.click('td[data-column="example"] a');
    await page.waitForFunction(
      (o) => document.querySelector('#message-title')?.textContent === `Message #${o}`,
      {},
      first['exampleOrder'],
    );
    assert.ok(await page.$(`li.msg.selected[data-order="${first['exampleOrder']}"]`));
  });

  it('Query: YASGUI runs a named query on the local /sparql and shows its rows, as a table and as a chart', async () => {
    await open('#/query');
    await page.waitForSelector('.yasqe .CodeMirror');
    await page.select('#example', 'tool-calls');
    await page.click('.yasqe_queryButton');
    const expected = await api('tool-calls');
    await page.waitForFunction(
      (n) => document.querySelectorAll('.yasr table tbody tr').length === n,
      { timeout: 30_000 },
      Math.min(expected.length, 50),
    );
    const firstTool = await page.$eval('.yasr table tbody tr td:nth-child(3)', (td) => td.textContent ?? '');
    assert.ok(firstTool.includes(String(expected[0]!['tool'])), `${firstTool} is ${expected[0]!['tool']}`);
    await audit('query');
    await page.click('.yasr .select_chart');
    await page.waitForSelector('.yasr-chart svg rect.bar');
    assert.equal((await page.$$('.yasr-chart svg rect.bar')).length, expected.length);
    await page.screenshot({ path: path.join(screenshots, 'query-chart.png'), fullPage: true });
  });

  it('Vocabulary: the ontology’s terms with their versions and descriptions, searchable', async () => {
    await open('#/vocabulary?q=CallToolRequest');
    const terms = await page.$$eval('[data-term]', (cards) => cards.map((c) => c.getAttribute('data-term')));
    assert.ok(terms.includes('mcp:CallToolRequest'), terms.join(' '));
    assert.ok((await text('[data-term="mcp:CallToolRequest"]')).includes('2024-11-05'));
    await audit('vocabulary');
  });

  it('Live: a page open while traffic is ingested shows it without a reload', async () => {
    await open('#/sessions');
    const before = (await page.$$('tr[data-session]')).length;
    const record = {
      seq: 1,
      ts: '2026-12-02T10:00:00.000Z',
      dir: 'c2s',
      server: 'live-test',
      session: 'live-session-1',
      msg: { jsonrpc: '2.0', id: 1, method: 'ping' },
    };
    const response = await fetch(`${service.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify(record)}\n`,
    });
    assert.equal(response.status, 200);
    await page.waitForFunction(
      (n) => document.querySelectorAll('tr[data-session]').length === n,
      { timeout: 20_000 },
      before + 1,
    );
    assert.ok(await page.$('tr[data-session="live-session-1"]'));
    assert.equal(await page.evaluate(() => document.body.dataset['changes']), '1');
  });

  it('no request left the loopback address, every request was a read, and nothing logged an error', () => {
    assert.deepEqual(outside, []);
    assert.deepEqual([...methods], ['GET']);
    assert.deepEqual(errors, []);
  });
});
