import type { BlockPage, PoolCoin, PoolPorts, PoolStats } from '@manjam/contract';
import { PORT_TABLE, portRowOfPoolCoin } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { OperatorAlertsRepository, type OperatorAlert } from '../../db/repositories/operator-alerts.js';
import { PoolQueries } from '../../db/repositories/queries-pool.js';
import { feeBpsOf } from '../../accounting/context.js';
import { HASH_FACTORS, shorten } from './figures.js';
import { SwrCache } from './swr-cache.js';

export interface PoolPortsSource {
  host: string;
  /** `protocol` absent means V1; a V2 port carries the authority key once it is known. */
  ports(): {
    coin: PoolCoin;
    port: number;
    tls: boolean;
    scheme: string;
    protocol?: 'v1' | 'v2';
    authorityKey?: string;
  }[];
  hashrate(coin: PoolCoin): number | null;
}

const WINDOW_MS = 10 * 60_000;
/** The oldest pool figures /api/pool/stats serves (from the start of their read). */
export const POOL_STATS_MAX_AGE_MS = 5_000;

/** Public pool figures: per-algorithm stats, the port table, found blocks. */
export class PoolService {
  private readonly queries: PoolQueries;
  private readonly cache: SwrCache<PoolStats>;

  private readonly alerts: OperatorAlertsRepository;

  constructor(
    db: Queryable,
    private readonly config: Config,
    private readonly pool: PoolPortsSource,
    private readonly now: () => number,
    onError: (error: unknown) => void,
  ) {
    this.queries = new PoolQueries(db);
    this.alerts = new OperatorAlertsRepository(db);
    this.cache = new SwrCache(POOL_STATS_MAX_AGE_MS, now, onError);
  }

  stats(): Promise<PoolStats> {
    return this.cache.get('stats', () => this.loadStats());
  }

  /**
   * One row per PORT_TABLE algorithm (its first live V1 port, or the seed port), then one row per
   * live Stratum V2 port with its authority key. V2 rows come last so readers that take an
   * algorithm's first row keep finding its V1 port.
   */
  ports(): PoolPorts {
    const served = this.pool.ports();
    const v1 = served.filter((p) => p.protocol !== 'v2');
    const table = PORT_TABLE.map((row) => {
      const port = v1.find((p) => portRowOfPoolCoin(p.coin).algorithm === row.algorithm);
      return {
        algorithm: row.algorithm,
        name: row.name,
        port: port?.port ?? row.port,
        live: port !== undefined,
      };
    });
    const v2 = served
      .filter((p) => p.protocol === 'v2')
      .map((p) => {
        const row = portRowOfPoolCoin(p.coin);
        return {
          algorithm: row.algorithm,
          name: row.name,
          port: p.port,
          live: true,
          protocol: 'v2' as const,
          ...(p.authorityKey ? { authorityKey: p.authorityKey } : {}),
        };
      });
    // The kit's rule (stratum/block-first.ts, stratum/vardiff.ts capAt), the same on every port.
    const shareDifficulty = { capsAtNetworkDifficulty: true as const, blockFirst: true as const };
    return { host: this.pool.host, shareDifficulty, ports: [...table, ...v2] };
  }

  /** Open operator alerts (stuck payout, empty wallet, failing accounting), for /metrics. */
  operatorAlerts(): Promise<OperatorAlert[]> {
    return this.alerts.open();
  }

  /** Share, block and payout counts for /metrics (shares since `since`). */
  metricsCounts(since: Date): ReturnType<PoolQueries['metricsCounts']> {
    return this.queries.metricsCounts(since);
  }

  async blocks(page: number, pageSize: number, coin: string | undefined): Promise<BlockPage> {
    const { rows, total } = await this.queries.blocks(coin ?? null, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((b) => ({
        height: b.height,
        hash: b.hash,
        coin: b.coin as PoolCoin,
        status: b.status as 'pending' | 'confirmed' | 'orphaned',
        confirmations: b.confirmations,
        reward: b.reward.toString(),
        finder: b.finder ? shorten(b.finder) : '',
        foundAt: b.foundAt.toISOString(),
        effort: b.effort,
      })),
      page,
      pageSize,
      total,
    };
  }

  private async loadStats(): Promise<PoolStats> {
    const now = this.now();
    const [activity, tips, blockCounts] = await Promise.all([
      this.queries.coinActivity(new Date(now - WINDOW_MS), new Date(now), HASH_FACTORS),
      this.queries.chainTips(),
      this.queries.blockCounts(),
    ]);
    const { accounting } = this.config;
    return {
      host: this.pool.host,
      asOf: new Date(now).toISOString(),
      // V1 ports only: the stats' rows give stratum+tcp URLs (V2 ports are on ports()).
      algorithms: this.pool
        .ports()
        .filter((p) => p.protocol !== 'v2')
        .map((p) => {
          const row = portRowOfPoolCoin(p.coin);
          const algorithm = row.account;
          const act = activity.find((a) => a.coin === p.coin);
          const tip = tips.find((t) => t.coin === p.coin);
          return {
            algorithm,
            coin: p.coin,
            network: this.config.chains[p.coin].network,
            live: true,
            port: p.port,
            tls: p.tls,
            hashrate: this.pool.hashrate(p.coin) ?? (act ? act.hashes / (WINDOW_MS / 1000) : 0),
            miners: act?.payees ?? 0,
            workers: act?.workers ?? 0,
            networkHeight: tip?.height ?? null,
            networkDifficulty: tip?.networkDifficulty ?? null,
            fee: feeBpsOf(this.config, p.coin) / 100,
            payoutInterval: accounting.payoutIntervalHours,
            scheme: p.scheme,
            blocksFound: blockCounts.get(p.coin) ?? 0,
          };
        }),
    };
  }
}
