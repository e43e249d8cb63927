// One measured scenario against the running pool process: N connections (connect + subscribe +
// authorize), shares mined up front, a timed phase (max rate or fixed rate), the figures, then
// every connection closed (and seen gone by the pool) before the next scenario.
import { algorithmOf } from '@manjam/protocol';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type { BenchDatabaseKind } from './database.js';
import { MAINNET_POOL_ADDRESS } from './frozen-source.js';
import { Generator, type MergedRun } from './generator.js';
import type { ServerUsage } from './messages.js';
import { PoolHandle } from './pool-handle.js';

export interface ScenarioSpec {
  label: string;
  coin: BitcoinFamilyCoin;
  connections: number;
  seconds: number;
  /** Max: as fast as the pool answers, `depth` submits in flight per connection. */
  mode: { kind: 'max'; depth: number; budgetPerSecond: number } | { kind: 'rate'; rate: number };
  db: BenchDatabaseKind;
  threads: number;
}

export interface ScenarioResult {
  spec: ScenarioSpec;
  loadBefore: number[];
  connected: { ok: number; failed: number; firstError: string | undefined; seconds: number };
  memory: { idleRss: number; connectedRss: number; heapDelta: number };
  mined: { shares: number; tried: number; seconds: number };
  run: MergedRun;
  pool: { before: ServerUsage; after: ServerUsage; settled: ServerUsage; wallSeconds: number };
  settleSeconds: number;
}

const SETTLE_MS = 2_500;

const GONE_MS = 15_000;

/** Waits until the pool has seen every connection close (bounded). */
async function waitForNoConnections(pool: PoolHandle): Promise<void> {
  const until = performance.now() + GONE_MS;
  while ((await pool.usage()).connections > 0 && performance.now() < until)
    await new Promise((r) => setTimeout(r, 100));
}

export async function runScenario(
  pool: PoolHandle,
  spec: ScenarioSpec,
  loadavg: () => number[],
): Promise<ScenarioResult> {
  const loadBefore = loadavg();
  const login = `${MAINNET_POOL_ADDRESS[spec.coin]}.bench`;
  const generator = Generator.start(spec.threads, {
    port: pool.ports[spec.coin],
    host: '127.0.0.1',
    coin: spec.coin,
    login,
  });
  try {
    await pool.usage({ gc: true });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idle = await pool.usage({ gc: true });
    const connectStart = performance.now();
    const connected = {
      ...(await generator.connect(spec.connections)),
      seconds: (performance.now() - connectStart) / 1000,
    };
    const afterConnect = await pool.usage({ gc: true });
    const budget =
      spec.mode.kind === 'max'
        ? spec.mode.budgetPerSecond * spec.seconds
        : spec.mode.rate * spec.seconds * 1.05;
    const mined = await generator.prepare(Math.ceil(budget / Math.max(1, connected.ok)));
    const before = await pool.usage({ resetLoop: true });
    const started = performance.now();
    const run = await generator.run(
      spec.mode.kind === 'max'
        ? { mode: 'max', seconds: spec.seconds, depth: spec.mode.depth }
        : { mode: 'rate', seconds: spec.seconds, rate: spec.mode.rate },
    );
    const after = await pool.usage({ persisted: true });
    const wallSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settled = await pool.usage({ persisted: true });
    run.latencies.sort();
    return {
      spec,
      loadBefore,
      connected,
      mined,
      run,
      memory: {
        idleRss: idle.rss,
        connectedRss: afterConnect.rss,
        heapDelta: afterConnect.heapUsed - idle.heapUsed,
      },
      pool: { before, after, settled, wallSeconds },
      settleSeconds: SETTLE_MS / 1000,
    };
  } finally {
    await generator.close().catch(() => undefined);
    await waitForNoConnections(pool);
  }
}

export function algorithmLabel(coin: BitcoinFamilyCoin): string {
  return algorithmOf(coin) === 'sha256d' ? 'SHA-256d' : 'Scrypt';
}
