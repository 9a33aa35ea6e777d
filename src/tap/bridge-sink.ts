// Delivers capture records to a running `mcp-ld serve` (POST /ingest, NDJSON), which lifts them with its one
// long-lived lifter, so a request and its response in different batches still match. How an answer is taken:
// - a network error, 502/503/504, or a 4xx about the request rather than the batch (401/403 a wrong token, 421 a
//   refused Host, 423, 429, …): the service is unavailable to us; the queue spools and retries;
// - 400/413/415/422, the batch refused as bad input: quarantined at once (BatchRefused);
// - another 5xx, the service failing on this batch: retried a few times, then quarantined (BatchFailed).
import { BatchFailed, BatchRefused, badInputStatuses, type DeliverySink } from './delivery.js';

export class BridgeSink implements DeliverySink {
  private readonly ingestUrl: URL;

  constructor(
    bridge: URL,
    private readonly token: string | undefined,
  ) {
    this.ingestUrl = new URL('/ingest', bridge);
  }

  async ingest(records: string): Promise<{ quads?: number }> {
    const response = await fetch(this.ingestUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-ndjson',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: records,
    });
    const text = await response.text();
    if (response.status < 400) {
      try {
        return { quads: (JSON.parse(text) as { stored: { quads: number } }).stored.quads };
      } catch {
        return {}; // answered, but not with mcp-ld's report
      }
    }
    let detail = text;
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
    } catch {
      // not problem+json
    }
    const token =
      response.status === 401 || response.status === 403
        ? `; give the tap the service's write token in MCPLD_WRITE_TOKEN`
        : '';
    const said = `${this.ingestUrl.href} answered ${response.status}: ${detail.slice(0, 500)}${token}`;
    if (badInputStatuses.has(response.status)) throw new BatchRefused(said);
    if (response.status >= 500 && ![502, 503, 504].includes(response.status)) throw new BatchFailed(said);
    throw new Error(said);
  }
}
