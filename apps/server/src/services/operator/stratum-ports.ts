// The operator console's Stratum ports: each live port with the connections open on it and what its
// miners send (accepted shares/s over the last minute, hashrate over 10 minutes). A process that
// runs the port's listener counts them per port (stratum/listener.ts PortWork); one that does not
// (an API run apart) reads its coin's recorded figures instead, every port of the coin together:
// accepted shares from /metrics' share counts (PoolService.metricsCounts over share_stats) and the
// hashrate of /api/pool/stats (PoolService.stats), so the console and the public page never disagree.
import type { OperatorPorts, PoolCoin } from '@manjam/contract';
import { portRowOfPoolCoin } from '@manjam/contract';
import type { PoolService } from '../stats/pool-service.js';

const MINUTE_MS = 60_000;

/** A port as the process serving the API knows it (http/types.ts PoolInfo.ports). */
export interface LivePort {
  coin: PoolCoin;
  port: number;
  tls: boolean;
  protocol?: 'v1' | 'v2';
  /** Open connections, accepted shares/s and hashrate, when this process runs the port's listener. */
  connections?: number;
  sharesPerSecond?: number;
  hashrate?: number;
}

/**
 * Shares per second "over the last minute": share_stats counts by the minute, so the rate covers
 * the last whole minute and the current one so far (60 to 120 s), never a minute just begun alone.
 */
export function sharesWindow(nowMs: number): { since: Date; seconds: number } {
  const since = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
  return { since: new Date(since), seconds: (nowMs - since) / 1000 };
}

export async function stratumPorts(
  pool: PoolService,
  live: readonly LivePort[],
  nowMs: number,
): Promise<OperatorPorts> {
  const coinWide = live.some((p) => p.sharesPerSecond === undefined || p.hashrate === undefined);
  const window = sharesWindow(nowMs);
  const [counts, stats] = coinWide
    ? await Promise.all([pool.metricsCounts(window.since), pool.stats()])
    : [undefined, undefined];
  return {
    asOf: new Date(nowMs).toISOString(),
    ports: live.map((p) => {
      const row = {
        coin: p.coin,
        algorithm: portRowOfPoolCoin(p.coin).name,
        port: p.port,
        protocol: p.protocol ?? 'v1',
        tls: p.tls,
        connections: p.connections ?? null,
      };
      if (p.sharesPerSecond !== undefined && p.hashrate !== undefined)
        return { ...row, scope: 'port', sharesPerSecond: p.sharesPerSecond, hashrate: p.hashrate };
      const accepted = counts?.shares.find((s) => s.coin === p.coin)?.accepted ?? 0;
      return {
        ...row,
        scope: 'coin',
        sharesPerSecond: accepted / window.seconds,
        hashrate: stats?.algorithms.find((a) => a.coin === p.coin)?.hashrate ?? 0,
      };
    }),
  };
}
