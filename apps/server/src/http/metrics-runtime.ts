// What stalls a Node process: event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every
// DELAY_SAMPLE_MS) and garbage-collection pauses (PerformanceObserver 'gc'). Figures cover a window: the
// last full window (default 60 s) once there is one, else the time since start or reset.
// What it costs: memory (process.memoryUsage) and CPU time since start, read at each scrape.
import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
} from 'node:perf_hooks';
import type { DatabaseMemory } from '../db/index.js';
import type { GaugeSample, MetricsRegistry } from './metrics.js';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

export interface LoopFigures {
  /** Event-loop delay percentiles and maximum, milliseconds. */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Garbage-collection pauses: how many, their total and the longest, milliseconds. */
  gcPauses: number;
  gcTotalMs: number;
  gcMaxMs: number;
}

interface GcWindow {
  pauses: number;
  totalMs: number;
  maxMs: number;
  byKind: Map<string, { pauses: number; totalMs: number }>;
}

const emptyGc = (): GcWindow => ({ pauses: 0, totalMs: 0, maxMs: 0, byKind: new Map() });

/**
 * The event-loop delay histogram's sampling period. Its timer wakes the process at this rate for
 * as long as it lives: at 10 ms that alone cost an idle pool 0.78 % of a core (155 ms of CPU per
 * 20 s in a bare node process; 37 ms at 50 ms), against issue 43's 1 % for the whole idle process.
 * A stall longer than the period is still caught each time; shorter ones are sampled (a 25 ms
 * stall about every other time), and GC pauses, the usual short ones, are counted apart.
 */
export const DELAY_SAMPLE_MS = 50;

/** Watches the event loop and the garbage collector of this process. */
export class RuntimeMonitor {
  private readonly delay: IntervalHistogram = monitorEventLoopDelay({ resolution: DELAY_SAMPLE_MS });
  private readonly observer: PerformanceObserver;
  private gc = emptyGc();
  /** Counters since start (Prometheus counters). */
  private readonly gcTotals = new Map<string, { pauses: number; totalMs: number }>();
  private last: LoopFigures | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(windowMs = 60_000) {
    this.delay.enable();
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const detail = (entry as { detail?: { kind?: number } }).detail;
        const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
        this.gc.pauses++;
        this.gc.totalMs += entry.duration;
        this.gc.maxMs = Math.max(this.gc.maxMs, entry.duration);
        for (const map of [this.gc.byKind, this.gcTotals]) {
          const k = map.get(kind) ?? { pauses: 0, totalMs: 0 };
          k.pauses++;
          k.totalMs += entry.duration;
          map.set(kind, k);
        }
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
    if (windowMs > 0) {
      this.timer = setInterval(() => {
        this.last = this.current();
        this.reset();
      }, windowMs);
      this.timer.unref();
    }
  }

  /** Figures since the last reset (or window). */
  current(): LoopFigures {
    const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : 0);
    const sampled = this.delay.count > 0;
    return {
      delayP50Ms: sampled ? ms(this.delay.percentile(50)) : 0,
      delayP99Ms: sampled ? ms(this.delay.percentile(99)) : 0,
      delayMaxMs: sampled ? ms(this.delay.max) : 0,
      gcPauses: this.gc.pauses,
      gcTotalMs: this.gc.totalMs,
      gcMaxMs: this.gc.maxMs,
    };
  }

  /** The last full window's figures, or those since start while there is none. */
  window(): LoopFigures {
    return this.last ?? this.current();
  }

  /** GC pauses and their total time since start, by kind. */
  gcSinceStart(): { kind: string; pauses: number; totalMs: number }[] {
    return [...this.gcTotals].map(([kind, v]) => ({ kind, ...v }));
  }

  reset(): void {
    this.delay.reset();
    this.gc = emptyGc();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.delay.disable();
    this.observer.disconnect();
  }
}

/** Registers the event-loop and GC figures of `monitor` on /metrics. */
export function registerRuntimeMetrics(metrics: MetricsRegistry, monitor: RuntimeMonitor): void {
  const window = (pick: (f: LoopFigures) => GaugeSample[]) => () => Promise.resolve(pick(monitor.window()));
  metrics.register(
    'manjam_event_loop_delay_seconds',
    'Event-loop delay over the last minute (quantile 0.5, 0.99 and 1 = the maximum)',
    'gauge',
    window((f) => [
      { labels: { quantile: '0.5' }, value: f.delayP50Ms / 1000 },
      { labels: { quantile: '0.99' }, value: f.delayP99Ms / 1000 },
      { labels: { quantile: '1' }, value: f.delayMaxMs / 1000 },
    ]),
  );
  metrics.register(
    'manjam_gc_pause_max_seconds',
    'Longest garbage-collection pause over the last minute',
    'gauge',
    window((f) => [{ labels: {}, value: f.gcMaxMs / 1000 }]),
  );
  metrics.register(
    'manjam_gc_pauses_total',
    'Garbage-collection pauses since start, by kind',
    'counter',
    () => Promise.resolve(monitor.gcSinceStart().map((g) => ({ labels: { kind: g.kind }, value: g.pauses }))),
  );
  metrics.register(
    'manjam_gc_pause_seconds_total',
    'Time spent in garbage-collection pauses since start, by kind',
    'counter',
    () =>
      Promise.resolve(
        monitor.gcSinceStart().map((g) => ({ labels: { kind: g.kind }, value: g.totalMs / 1000 })),
      ),
  );
}

/** This process's memory (process.memoryUsage) and CPU time since start, read at each scrape. */
export function registerProcessMetrics(metrics: MetricsRegistry): void {
  metrics.register(
    'manjam_process_memory_bytes',
    'Memory of this process: resident set (rss), V8 heap used and total, memory outside the heap (external) and of it ArrayBuffers; the embedded database thread is inside rss',
    'gauge',
    () => {
      const m = process.memoryUsage();
      return Promise.resolve([
        { labels: { kind: 'rss' }, value: m.rss },
        { labels: { kind: 'heap_used' }, value: m.heapUsed },
        { labels: { kind: 'heap_total' }, value: m.heapTotal },
        { labels: { kind: 'external' }, value: m.external },
        { labels: { kind: 'array_buffers' }, value: m.arrayBuffers },
      ]);
    },
  );
  metrics.register(
    'manjam_process_cpu_seconds_total',
    'CPU time of this process since start (every thread), by mode',
    'counter',
    () => {
      const cpu = process.cpuUsage();
      return Promise.resolve([
        { labels: { mode: 'user' }, value: cpu.user / 1e6 },
        { labels: { mode: 'system' }, value: cpu.system / 1e6 },
      ]);
    },
  );
}

/** The embedded database's own memory (its thread's V8 heap, PostgreSQL's WebAssembly memory). */
export function registerDatabaseMemoryMetrics(
  metrics: MetricsRegistry,
  memory: () => Promise<DatabaseMemory>,
): void {
  metrics.register(
    'manjam_database_memory_bytes',
    'Memory of the embedded database (PGlite on its thread, inside the process rss): its V8 heap used and total, and its WebAssembly memory',
    'gauge',
    async () => {
      const m = await memory();
      return [
        { labels: { kind: 'heap_used' }, value: m.heapUsedBytes },
        { labels: { kind: 'heap_total' }, value: m.heapTotalBytes },
        { labels: { kind: 'wasm' }, value: m.wasmBytes },
      ];
    },
  );
}
