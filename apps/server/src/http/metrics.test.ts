import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './metrics.js';
import {
  registerDatabaseMemoryMetrics,
  registerProcessMetrics,
  registerRuntimeMetrics,
  RuntimeMonitor,
  DELAY_SAMPLE_MS,
} from './metrics-runtime.js';

describe('Prometheus text', () => {
  it('renders registered samples and a cumulative latency histogram per route', async () => {
    const registry = new MetricsRegistry();
    registry.register('manjam_blocks', 'Blocks', 'gauge', () =>
      Promise.resolve([{ labels: { coin: 'BTC', status: 'confirmed' }, value: 3 }]),
    );
    registry.observeRequest('GET', '/api/workers', 200, 0.004);
    registry.observeRequest('GET', '/api/workers', 200, 0.2);
    const text = await registry.render();
    expect(text).toContain('# TYPE manjam_blocks gauge\nmanjam_blocks{coin="BTC",status="confirmed"} 3');
    expect(text).toContain(
      'manjam_http_request_duration_seconds_bucket{method="GET",route="/api/workers",status="200",le="0.005"} 1',
    );
    expect(text).toContain(
      'manjam_http_request_duration_seconds_bucket{method="GET",route="/api/workers",status="200",le="0.25"} 2',
    );
    expect(text).toContain(
      'manjam_http_request_duration_seconds_bucket{method="GET",route="/api/workers",status="200",le="+Inf"} 2',
    );
    expect(text).toContain(
      'manjam_http_request_duration_seconds_count{method="GET",route="/api/workers",status="200"} 2',
    );
  });

  it('escapes quotes and backslashes in label values', async () => {
    const registry = new MetricsRegistry();
    registry.register('m', 'help', 'gauge', () => Promise.resolve([{ labels: { l: 'a"b\\c' }, value: 1 }]));
    expect(await registry.render()).toContain('m{l="a\\"b\\\\c"} 1');
  });
});

describe('event-loop and GC figures', () => {
  it('shows a blocked event loop on /metrics, with the GC figures beside it', async () => {
    const monitor = new RuntimeMonitor(0);
    try {
      // The monitor's first samples, then the loop blocked for 150 ms (3 sampling periods): the
      // sample due in it comes at least 100 ms late.
      await new Promise((resolve) => setTimeout(resolve, DELAY_SAMPLE_MS * 1.5));
      const until = performance.now() + 150;
      while (performance.now() < until);
      await new Promise((resolve) => setTimeout(resolve, DELAY_SAMPLE_MS * 1.5));
      const figures = monitor.current();
      expect(figures.delayMaxMs).toBeGreaterThanOrEqual(90);
      const registry = new MetricsRegistry();
      registerRuntimeMetrics(registry, monitor);
      const text = await registry.render();
      expect(text).toMatch(/manjam_event_loop_delay_seconds\{quantile="1"\} 0\.(09|[1-9])\d*/);
      expect(text).toContain('# TYPE manjam_gc_pauses_total counter');
      expect(text).toContain('# TYPE manjam_gc_pause_max_seconds gauge');
      monitor.reset();
      expect(monitor.current()).toMatchObject({ gcPauses: 0, gcMaxMs: 0 });
    } finally {
      monitor.stop();
    }
  });
});

describe('what the process costs', () => {
  it('shows the process memory, its CPU time and the embedded database memory on /metrics', async () => {
    const registry = new MetricsRegistry();
    registerProcessMetrics(registry);
    registerDatabaseMemoryMetrics(registry, () =>
      Promise.resolve({ heapUsedBytes: 1_000, heapTotalBytes: 2_000, wasmBytes: 30_000_000 }),
    );
    const text = await registry.render();
    for (const kind of ['rss', 'heap_used', 'heap_total', 'external', 'array_buffers'])
      expect(text).toMatch(new RegExp(`manjam_process_memory_bytes\\{kind="${kind}"\\} [1-9]\\d*`));
    expect(text).toContain('# TYPE manjam_process_cpu_seconds_total counter');
    expect(text).toMatch(/manjam_process_cpu_seconds_total\{mode="user"\} \d/);
    expect(text).toContain('manjam_database_memory_bytes{kind="wasm"} 30000000');
  });
});
