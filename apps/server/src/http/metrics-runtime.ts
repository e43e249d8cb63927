// What stalls a Node process: event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every
// 10 ms) and garbage-collection pauses (PerformanceObserver 'gc'). Figures cover a window: the
// last full window (default 60 s) once there is one, else the time since start or reset.
import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
} from 'node:perf_hooks';
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

/** Watches the event loop and the garbage collector of this process. */
export class RuntimeMonitor {
  private readonly delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
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
