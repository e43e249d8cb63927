import type { LookupMiner, MinerLookup } from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import {
  PoolQueries,
  type LookupWorkerRow,
  type PayeeEarningsRow,
} from '../../db/repositories/queries-pool.js';
import type { Logger } from '../../logger.js';
import { algorithmId, HASH_FACTORS } from '../stats/figures.js';
import { rigWorkerToMiner, type RigClient } from '../rig/rig-client.js';
import type { SecretBox } from '../auth/secret-box.js';
import type { SettingsService } from '../settings/settings-service.js';
import { ONLINE_WINDOW_MS } from '../workers/workers-service.js';

/** A share of a payee's earnings in proportion to a worker's accepted difficulty (PPS pays per difficulty). */
function portion(total: bigint, part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0';
  const ppm = BigInt(Math.round(Math.min(1, part / whole) * 1_000_000));
  return ((total * ppm) / 1_000_000n).toString();
}

/** Who a lookup answers: the public (worker names from the Stratum login only) or the workers' owner (their private names too). */
type Audience = 'public' | 'owner';

/** `address` or `address.worker` (payout addresses carry no dot). */
function splitQuery(q: string): { address: string; worker: string | null } {
  const dot = q.indexOf('.');
  return dot < 0
    ? { address: q, worker: null }
    : { address: q.slice(0, dot), worker: q.slice(dot + 1) || null };
}

/**
 * The public miner lookup and search, merged with rig-management rigs.
 *
 * Public lookup is by payout address only (`address` or `address.worker`): results never carry an
 * account username, a worker's private name or an internal id (worker ids are opaque HMACs).
 * Signed-in users may also find their own workers by worker name or private name.
 */
export class SearchService {
  private readonly queries: PoolQueries;

  constructor(
    db: Queryable,
    private readonly settings: SettingsService,
    private readonly rig: RigClient,
    private readonly box: SecretBox,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.queries = new PoolQueries(db);
  }

  async lookup(address: string): Promise<MinerLookup> {
    const payeeIds = await this.queries.payeesByAddress(address);
    return { address, miners: await this.minersOf(payeeIds, { workerIds: null, name: null }, 'public') };
  }

  async search(q: string, userId: number | null): Promise<MinerLookup[]> {
    const { address, worker } = splitQuery(q);
    const [byAddress, own] = await Promise.all([
      this.queries.payeesByAddress(address),
      userId === null ? Promise.resolve([]) : this.queries.ownWorkersByName(userId, q),
    ]);
    const results: MinerLookup[] = [];
    if (byAddress.length)
      results.push({
        address,
        miners: await this.minersOf(byAddress, { workerIds: null, name: worker }, 'public'),
      });
    if (own.length) {
      const payeeIds = [...new Set(own.map((o) => o.payeeId))];
      results.push({
        address: q,
        miners: await this.minersOf(payeeIds, { workerIds: own.map((o) => o.workerId), name: null }, 'owner'),
      });
    }
    const hive = userId === null || worker !== null ? [] : await this.hiveMiners(userId, q);
    if (hive.length) {
      const existing = results.find((r) => r.address === q);
      if (existing) existing.miners.push(...hive);
      else results.push({ address: q, miners: hive });
    }
    return results;
  }

  private async minersOf(
    payeeIds: number[],
    only: { workerIds: number[] | null; name: string | null },
    audience: Audience,
  ): Promise<LookupMiner[]> {
    if (payeeIds.length === 0) return [];
    const now = new Date(this.now());
    const [workers, earnings] = await Promise.all([
      this.queries.lookupWorkers(payeeIds, only, now, HASH_FACTORS),
      this.queries.payeeEarnings(payeeIds, now),
    ]);
    const byPayee = new Map(earnings.map((e) => [e.payeeId, e]));
    return workers.map((w) => this.toLookupMiner(w, byPayee.get(w.payeeId), now.getTime(), audience));
  }

  private toLookupMiner(
    w: LookupWorkerRow,
    earnings: PayeeEarningsRow | undefined,
    nowMs: number,
    audience: Audience,
  ): LookupMiner {
    return {
      id: this.box.opaqueId(`worker:${w.workerId}`),
      name: audience === 'owner' ? (w.displayName ?? w.name) : w.name,
      algorithm: algorithmId(w.algorithm, w.coin),
      status: w.lastShareAt && nowMs - w.lastShareAt.getTime() <= ONLINE_WINDOW_MS ? 'active' : 'inactive',
      hashrate: w.recentHashes,
      // The worker page's figures: rejected counts every rejected share, stale ones included.
      shares: { accepted: w.accepted, rejected: w.rejected, stale: w.stale },
      earnings: {
        daily: portion(earnings?.day ?? 0n, w.diffDay, earnings?.diffDay ?? 0),
        weekly: portion(earnings?.week ?? 0n, w.diffWeek, earnings?.diffWeek ?? 0),
        monthly: portion(earnings?.month ?? 0n, w.diffMonth, earnings?.diffMonth ?? 0),
      },
      coin: w.coin,
      lastSeen: w.lastShareAt?.toISOString() ?? null,
      source: 'pool',
    };
  }

  /** Rigs of the signed-in user's rig-management account mining to `address`; a failing service adds none. */
  private async hiveMiners(userId: number, address: string): Promise<LookupMiner[]> {
    const token = await this.settings.rigToken(userId);
    if (!token) return [];
    try {
      const workers = await this.rig.workersForAddress(token, address);
      return workers.map((w) => rigWorkerToMiner(w, this.now()));
    } catch (error) {
      this.logger.warn({ err: error, userId }, 'rig-management search failed');
      return [];
    }
  }
}
