/** A small Prometheus text-format registry: counters, gauges read on scrape, one latency histogram. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

type Labels = Record<string, string>;

const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  return entries.length
    ? `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`
    : '';
};

export interface GaugeSample {
  labels: Labels;
  value: number;
}

export class MetricsRegistry {
  private readonly histogram = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();
  private readonly gauges: {
    name: string;
    help: string;
    type: 'gauge' | 'counter';
    read: () => Promise<GaugeSample[]>;
  }[] = [];

  /** One HTTP request, by method, route pattern and status code. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    const key = `${method} ${route} ${status}`;
    let entry = this.histogram.get(key);
    if (!entry) {
      entry = { labels, counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.histogram.set(key, entry);
    }
    BUCKETS.forEach((bound, i) => {
      if (seconds <= bound && entry) entry.counts[i] = (entry.counts[i] ?? 0) + 1;
    });
    entry.sum += seconds;
    entry.count += 1;
  }

  /** A metric whose samples are read at scrape time. */
  register(name: string, help: string, type: 'gauge' | 'counter', read: () => Promise<GaugeSample[]>): void {
    this.gauges.push({ name, help, type, read });
  }

  async render(): Promise<string> {
    const lines: string[] = [];
    for (const gauge of this.gauges) {
      const samples = await gauge.read();
      lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} ${gauge.type}`);
      for (const s of samples) lines.push(`${gauge.name}${labelText(s.labels)} ${s.value}`);
    }
    const name = 'manjam_http_request_duration_seconds';
    lines.push(`# HELP ${name} HTTP request latency by route`, `# TYPE ${name} histogram`);
    for (const entry of this.histogram.values()) {
      BUCKETS.forEach((bound, i) =>
        lines.push(
          `${name}_bucket${labelText({ ...entry.labels, le: String(bound) })} ${entry.counts[i] ?? 0}`,
        ),
      );
      lines.push(`${name}_bucket${labelText({ ...entry.labels, le: '+Inf' })} ${entry.count}`);
      lines.push(
        `${name}_sum${labelText(entry.labels)} ${entry.sum}`,
        `${name}_count${labelText(entry.labels)} ${entry.count}`,
      );
    }
    return `${lines.join('\n')}\n`;
  }
}
