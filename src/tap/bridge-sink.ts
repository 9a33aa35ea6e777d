// Delivers capture records to a running `mcp-ld serve` (POST /ingest, NDJSON), which lifts them with its one
// long-lived lifter, so a request and its response in different batches still match. A network error or a 5xx
// answer is the service being down (the queue spools and retries); a 4xx answer is final for that batch (retrying
// cannot help), reported and dropped.
import type { DeliverySink } from './delivery.js';

export class BridgeSink implements DeliverySink {
  private readonly ingestUrl: URL;

  constructor(
    bridge: URL,
    private readonly token: string | undefined,
    private readonly onRejected: (detail: string) => void,
  ) {
    this.ingestUrl = new URL('/ingest', bridge);
  }

  async ingest(records: string): Promise<void> {
    const response = await fetch(this.ingestUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: records,
    });
    const text = await response.text();
    if (response.status >= 500) throw new Error(`${this.ingestUrl.origin} answered ${response.status}`);
    if (response.status >= 400) {
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // not problem+json
      }
      this.onRejected(`${this.ingestUrl.href} refused a batch (${response.status}): ${detail}`);
    }
  }
}
