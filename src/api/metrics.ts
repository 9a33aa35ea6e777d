// Prometheus metrics in the text exposition format (0.0.4), kept by hand: a few counters, gauges and one histogram,
// no client library needed for that.

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0
    ? ''
    : `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`;
}

export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  private readonly latency = { counts: new Array<number>(12).fill(0), sum: 0, count: 0 };

  count(name: string, help: string, labels: Labels = {}, by = 1): void {
    let counter = this.counters.get(name);
    if (!counter) this.counters.set(name, (counter = { help, values: new Map() }));
    const key = labelText(labels);
    counter.values.set(key, (counter.values.get(key) ?? 0) + by);
  }

  observeQuery(seconds: number): void {
    this.latencyBuckets.forEach((bound, i) => {
      if (seconds <= bound) this.latency.counts[i]! += 1;
    });
    this.latency.sum += seconds;
    this.latency.count += 1;
  }

  /** The exposition text, with the gauges read at scrape time. */
  render(gauges: { name: string; help: string; value: number }[]): string {
    const lines: string[] = [];
    for (const [name, counter] of this.counters) {
      lines.push(`# HELP ${name} ${counter.help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of counter.values) lines.push(`${name}${labels} ${value}`);
    }
    for (const gauge of gauges)
      lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`, `${gauge.name} ${gauge.value}`);
    const name = 'mcpld_query_duration_seconds';
    lines.push(
      `# HELP ${name} SPARQL query latency (the SPARQL endpoint and named queries)`,
      `# TYPE ${name} histogram`,
    );
    this.latencyBuckets.forEach((bound, i) => lines.push(`${name}_bucket{le="${bound}"} ${this.latency.counts[i]}`));
    lines.push(
      `${name}_bucket{le="+Inf"} ${this.latency.count}`,
      `${name}_sum ${this.latency.sum}`,
      `${name}_count ${this.latency.count}`,
    );
    return lines.join('\n') + '\n';
  }
}
