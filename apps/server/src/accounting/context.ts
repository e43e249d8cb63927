import { algorithmOf, expectedHashesPerShare } from '@manjam/protocol';
import { portRowOfPoolCoin } from '@manjam/contract';
import type { Config } from '../config/index.js';
import { DEFAULT_FEE_BASIS_POINTS, type CoinId } from '../config/constants.js';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import type { AccountingChain } from './chain.js';
import type { AccountingMetrics } from './metrics.js';
import type { OperatorAlarms } from './operator-alerts.js';
import type { SkipNotices } from './skip-notices.js';

/** What every accounting step works with. */
export interface AccountingContext {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  chains: Map<CoinId, AccountingChain>;
  metrics: AccountingMetrics;
  /** The clock (tests pass their own). */
  now: () => Date;
  /** An interrupted run not found in the wallet is failed only once it is this old (ms). */
  intentGraceMs: number;
  /** Operator alerts (stuck runs, empty wallet, repeated failures). */
  alarms: OperatorAlarms;
  /** Payees already warned about as unpayable (no valid payout address): each logged once while it lasts. */
  skipNotices: SkipNotices;
  /** True once stop() was called: a step ends at its next slice boundary (slices.ts). */
  stopping: () => boolean;
}

/**
 * The pool fee of a coin's algorithm in basis points (config keys: sha256, scrypt, randomx, ...);
 * one the config leaves out is the schema's default (config/constants.ts).
 */
export function feeBpsOf(config: Config, coin: CoinId): number {
  const row = portRowOfPoolCoin(coin);
  return config.accounting.feeBasisPoints[row.feeAlgorithm] ?? DEFAULT_FEE_BASIS_POINTS[row.feeAlgorithm];
}

/** Expected hashes per unit of Stratum difficulty: 2^32 (sha256d), 2^16 (scrypt). */
export function hashesPerDifficulty(coin: CoinId): number {
  return expectedHashesPerShare(1, algorithmOf(coin));
}

export function chainOf(ctx: AccountingContext, coin: CoinId): AccountingChain {
  const chain = ctx.chains.get(coin);
  if (!chain) throw new Error(`no chain connection for ${coin}`);
  return chain;
}
