import type { FastifyInstance } from 'fastify';
import { OPERATOR_ALERT_KINDS } from '../db/repositories/operator-alerts.js';
import type { PoolService } from '../services/stats/pool-service.js';
import type { MetricsRegistry } from './metrics.js';
import { assertMetricsAccess } from './metrics-access.js';
import {
  registerDatabaseMemoryMetrics,
  registerProcessMetrics,
  registerRuntimeMetrics,
  RuntimeMonitor,
} from './metrics-runtime.js';
import { registerStratumMetrics } from './metrics-stratum.js';
import type { HttpDeps } from './types.js';

/** Database aggregates (blocks, payouts, last hour's shares) are read at most this often, however often /metrics is scraped. */
export const METRICS_AGGREGATE_TTL_MS = 15_000;

/**
 * /metrics in Prometheus text format: Stratum counters (kept in memory), shares, blocks, payouts,
 * HTTP latency, event-loop delay and GC pauses. The database aggregates are cached for METRICS_AGGREGATE_TTL_MS.
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: MetricsRegistry,
  deps: HttpDeps,
  pool: PoolService,
): void {
  const now = deps.now ?? Date.now;
  let counts: { at: number; value: ReturnType<PoolService['metricsCounts']> } | undefined;
  const read = () => {
    const at = now();
    if (!counts || at - counts.at >= METRICS_AGGREGATE_TTL_MS || at < counts.at) {
      const value = pool.metricsCounts(new Date(at - 3_600_000));
      const entry = { at, value };
      counts = entry;
      // A failed read is not kept: the next scrape asks again.
      void value.catch(() => {
        if (counts === entry) counts = undefined;
      });
    }
    return counts.value;
  };

  if (deps.metrics) registerStratumMetrics(metrics, deps.metrics);
  const chainUp = deps.chainUp;
  if (chainUp) {
    const help = 'Per coin: 1 while a node answers, 0 while its work is stopped';
    metrics.register('manjam_chain_up', help, 'gauge', () =>
      Promise.resolve(chainUp().map(({ coin, up }) => ({ labels: { coin }, value: up ? 1 : 0 }))),
    );
  }
  const accounting = deps.accountingCounters;
  if (accounting) {
    for (const name of Object.keys(accounting())) {
      metrics.register(`manjam_accounting_${name}`, `Accounting counter ${name} since start`, 'counter', () =>
        Promise.resolve([{ labels: {}, value: accounting()[name] ?? 0 }]),
      );
    }
  }
  metrics.register(
    'manjam_shares_last_hour',
    'Shares in the last hour by coin and result (from share_stats)',
    'gauge',
    async () =>
      (await read()).shares.flatMap((s) =>
        (['accepted', 'stale', 'duplicate', 'lowDifficulty', 'invalid'] as const).map((result) => ({
          labels: { coin: s.coin, result: result === 'lowDifficulty' ? 'low-difficulty' : result },
          value: s[result],
        })),
      ),
  );
  metrics.register('manjam_blocks', 'Blocks found by coin and status', 'gauge', async () =>
    (await read()).blocks.map((b) => ({ labels: { coin: b.coin, status: b.status }, value: b.n })),
  );
  metrics.register('manjam_payouts', 'Payouts by coin and status', 'gauge', async () =>
    (await read()).payouts.map((p) => ({ labels: { coin: p.coin, status: p.status }, value: p.n })),
  );
  metrics.register(
    'manjam_payouts_amount_base_units',
    'Sum of payouts in base units by coin and status',
    'gauge',
    async () =>
      (await read()).payouts.map((p) => ({
        labels: { coin: p.coin, status: p.status },
        value: Number(p.amount),
      })),
  );
  metrics.register(
    'manjam_payout_runs',
    'Payout runs by coin and state (intent: being sent; sent: waiting to be recorded; recorded; failed)',
    'gauge',
    async () =>
      (await read()).payoutRuns.map((r) => ({ labels: { coin: r.coin, status: r.status }, value: r.n })),
  );
  metrics.register(
    'manjam_accounting_credited_behind_seconds',
    'Per coin: how old the newest credited share moment is (credit_progress): the money screens\' "credited up to"',
    'gauge',
    async () =>
      (await read()).credited.map((c) => ({
        labels: { coin: c.coin },
        value: Math.max(0, Math.round((now() - c.through.getTime()) / 1000)),
      })),
  );

  metrics.register(
    'manjam_operator_alerts',
    'Open operator alerts by kind and coin (payout-stuck, payout-missing, wallet-insufficient, accounting-errors)',
    'gauge',
    async () => {
      const open = await pool.operatorAlerts();
      return OPERATOR_ALERT_KINDS.flatMap((kind) => {
        const coins = new Set(open.filter((a) => a.kind === kind).map((a) => a.coin ?? ''));
        if (coins.size === 0) return [{ labels: { kind, coin: '' }, value: 0 }];
        return [...coins].map((coin) => ({
          labels: { kind, coin },
          value: open.filter((a) => a.kind === kind && (a.coin ?? '') === coin).length,
        }));
      });
    },
  );

  // Event-loop delay and GC pauses of this process (the one that serves the API and, in the
  // all-in-one start, Stratum too).
  const runtime = new RuntimeMonitor();
  app.addHook('onClose', () => runtime.stop());
  registerRuntimeMetrics(metrics, runtime);
  registerProcessMetrics(metrics);
  const databaseMemory = deps.db.memory?.bind(deps.db);
  if (databaseMemory) registerDatabaseMemoryMetrics(metrics, databaseMemory);

  app.get('/metrics', async (request, reply) => {
    assertMetricsAccess(request, deps.config);
    const text = await metrics.render();
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}
