import type { LookupMiner, MinerLookup } from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import { PoolQueries, type LookupWorkerRow, type PayeeEarningsRow } from '../../db/repositories/queries-pool.js';
import type { Logger } from '../../logger.js';
import { algorithmId, HASH_FACTORS } from '../stats/figures.js';
import { rigWorkerToMiner, type RigClient } from '../rig/rig-client.js';
import type { SettingsService } from '../settings/settings-service.js';
import { ONLINE_WINDOW_MS } from '../workers/workers-service.js';

/** A share of a payee's earnings in proportion to a worker's accepted difficulty (PPS pays per difficulty). */
function portion(total: bigint, part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0';
  const ppm = BigInt(Math.round(Math.min(1, part / whole) * 1_000_000));
  return ((total * ppm) / 1_000_000n).toString();
}

function toLookupMiner(w: LookupWorkerRow, earnings: PayeeEarningsRow | undefined, nowMs: number): LookupMiner {
  return {
    id: String(w.workerId),
    name: w.displayName ?? w.name,
    algorithm: algorithmId(w.algorithm, w.coin),
    status: w.lastShareAt && nowMs - w.lastShareAt.getTime() <= ONLINE_WINDOW_MS ? 'active' : 'inactive',
    hashrate: w.recentHashes,
    shares: { accepted: w.accepted, rejected: Math.max(0, w.rejected - w.stale), stale: w.stale },
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

/** The public miner lookup and search (wallet address or worker login), merged with rig-management rigs. */
export class SearchService {
  private readonly queries: PoolQueries;

  constructor(
    db: Queryable,
    private readonly settings: SettingsService,
    private readonly rig: RigClient,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.queries = new PoolQueries(db);
  }

  async lookup(address: string): Promise<MinerLookup> {
    const payees = await this.queries.payeesByAddress(address);
    return { address, miners: await this.minersOf(payees.map((p) => p.payeeId), null) };
  }

  async search(q: string, userId: number | null): Promise<MinerLookup[]> {
    const [byAddress, byLogin] = await Promise.all([this.queries.payeesByAddress(q), this.queries.workersByLogin(q)]);
    const results: MinerLookup[] = [];
    if (byAddress.length) results.push({ address: q, miners: await this.minersOf(byAddress.map((p) => p.payeeId), null) });
    const owners = new Map<string, { payeeIds: Set<number>; workerIds: number[] }>();
    for (const hit of byLogin) {
      const entry = owners.get(hit.owner) ?? { payeeIds: new Set(), workerIds: [] };
      entry.payeeIds.add(hit.payeeId);
      entry.workerIds.push(hit.workerId);
      owners.set(hit.owner, entry);
    }
    for (const [owner, entry] of owners) {
      results.push({ address: owner, miners: await this.minersOf([...entry.payeeIds], entry.workerIds) });
    }
    const hive = userId === null ? [] : await this.hiveMiners(userId, q);
    if (hive.length) {
      const existing = results.find((r) => r.address === q);
      if (existing) existing.miners.push(...hive);
      else results.push({ address: q, miners: hive });
    }
    return results;
  }

  private async minersOf(payeeIds: number[], workerIds: number[] | null): Promise<LookupMiner[]> {
    if (payeeIds.length === 0) return [];
    const now = new Date(this.now());
    const [workers, earnings] = await Promise.all([
      this.queries.lookupWorkers(payeeIds, workerIds, now, HASH_FACTORS),
      this.queries.payeeEarnings(payeeIds, now),
    ]);
    const byPayee = new Map(earnings.map((e) => [e.payeeId, e]));
    return workers.map((w) => toLookupMiner(w, byPayee.get(w.payeeId), now.getTime()));
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
