import type { AlgorithmHashrate } from '@manjam/contract';
import type { CoinId } from '../../config/constants.js';

/** One of the signed-in miner's Stratum workers, as the assistant sees it. */
export interface WorkerFact {
  /** The worker part of "account.worker" (or its rename from the web app). */
  name: string;
  coin: CoinId;
  online: boolean;
  lastShareAt: Date | null;
  /** Hashrate over the last 10 minutes, H/s. */
  hashrate: number;
  /** Average hashrate over the last 24 hours, H/s. */
  hashrate24h: number;
  /** Rejected (stale, duplicate, low difficulty, invalid) as a share of all submitted in the last hour, 0..100. */
  rejectedPercent: number;
}

export interface CoinMoneyFact {
  coin: CoinId;
  /** Unpaid balance, base units. */
  balance: bigint;
  /** Credits of the open settlement day (since 00:00 UTC by default), base units; estimated until the daily close. */
  earnedToday: bigint;
  /** The miner's share of found blocks not mature yet, base units (not in the balance yet). */
  immature: bigint;
  /** When the pool last ran payouts for this coin. */
  lastPayoutRunAt: Date | null;
  /** The miner's own last payout. */
  lastPaid: { amount: bigint; at: Date; txid: string | null } | null;
}

/** Everything the assistant knows about a signed-in miner. Gathered by assistant-facts.ts. */
export interface MinerFacts {
  username: string;
  /** Each coin's payout threshold, base units: the account's own, else the pool default (one per coin). */
  payoutThresholds: Record<CoinId, bigint>;
  /** False while the miner has no payout address (none set, none pending, no registered wallet): nothing can be paid. */
  payoutAddressSet: boolean;
  /** The zone times are written in (chosen, else the browser's, else UTC). */
  timeZone: string;
  workers: WorkerFact[];
  /** Per algorithm, the figures of the dashboard, sidebar and workers page (services/shared/hashrate.ts). */
  hashrates: AlgorithmHashrate[];
  money: CoinMoneyFact[];
}
