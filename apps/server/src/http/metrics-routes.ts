import type { FastifyInstance } from 'fastify';
import type { PoolService } from '../services/stats/pool-service.js';
import type { MetricsRegistry } from './metrics.js';
import type { HttpDeps } from './types.js';

/** /metrics in Prometheus text format: Stratum counters (when in process), shares, blocks, payouts, HTTP latency. */
export function registerMetrics(app: FastifyInstance, metrics: MetricsRegistry, deps: HttpDeps, pool: PoolService): void {
  const now = deps.now ?? Date.now;
  let counts: ReturnType<PoolService['metricsCounts']> | undefined;
  const read = () => (counts ??= pool.metricsCounts(new Date(now() - 3_600_000)));

  const stratum = deps.metrics;
  if (stratum) {
    metrics.register('manjam_stratum_connections', 'Open Stratum connections', 'gauge', () => Promise.resolve([{ labels: {}, value: stratum.connections() }]));
    metrics.register('manjam_stratum_shares_total', 'Shares seen by Stratum since start, by result', 'counter', () =>
      Promise.resolve(Object.entries(stratum.sharesByResult()).map(([result, value]) => ({ labels: { result }, value }))),
    );
    const bans = stratum.bans;
    if (bans) {
      metrics.register('manjam_stratum_bans_total', 'Stratum ban decisions since start: a connection cut, or a whole address banned', 'counter', () =>
        Promise.resolve(Object.entries(bans()).map(([scope, value]) => ({ labels: { scope }, value }))),
      );
    }
  }
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
  metrics.register('manjam_shares_last_hour', 'Shares in the last hour by coin and result (from share_stats)', 'gauge', async () =>
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
  metrics.register('manjam_payouts_amount_base_units', 'Sum of payouts in base units by coin and status', 'gauge', async () =>
    (await read()).payouts.map((p) => ({ labels: { coin: p.coin, status: p.status }, value: Number(p.amount) })),
  );

  app.get('/metrics', async (_request, reply) => {
    counts = undefined;
    const text = await metrics.render();
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}
