import type { CoinId, PayoutScheme } from '../config/index.js';
import type { FoundBlockStatus } from '../db/repositories/blocks.js';
import type { RejectReason } from '../db/repositories/shares.js';

export type { RejectReason } from '../db/repositories/shares.js';
export { REJECT_REASONS } from '../db/repositories/shares.js';

/** Who a Stratum login pays: a Manjam account, or a wallet address mining without one. */
export type Identity =
  { kind: 'user'; userId: number; username: string } | { kind: 'wallet'; address: string };

/**
 * One authorized "<account or wallet>.<worker>" on a coin. `C` lets one family's code narrow the
 * coin (coins/monero/stratum/types.ts: `MoneroMinerRef`).
 */
export interface MinerRef<C extends string = CoinId> {
  coin: C;
  identity: Identity;
  /** The part after the first dot ('default' when none). */
  worker: string;
  /** `${coin}:u:${userId}` or `${coin}:w:${address}`: the payee's key. */
  payeeKey: string;
  /** `${payeeKey}.${worker}`: the worker's key. */
  workerKey: string;
}

export function minerRef<C extends string = CoinId>(
  coin: C,
  identity: Identity,
  worker: string,
): MinerRef<C> {
  const payeeKey =
    identity.kind === 'user' ? `${coin}:u:${identity.userId}` : `${coin}:w:${identity.address}`;
  return { coin, identity, worker, payeeKey, workerKey: `${payeeKey}.${worker}` };
}

export interface AcceptedShare {
  miner: MinerRef;
  /** The share difficulty the miner was asked for (credited). */
  difficulty: number;
  /** Difficulty of the share's own hash (best-share tracking). */
  actualDifficulty: number;
  networkDifficulty: number;
  height: number;
  scheme: PayoutScheme;
  atMs: number;
}

export interface FoundBlockRecord {
  miner: MinerRef;
  height: number;
  hash: string;
  scheme: PayoutScheme;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  networkDifficulty: number;
  shareDifficulty: number;
  status: FoundBlockStatus;
  submitResult: string | null;
  atMs: number;
}

export interface RejectCount {
  miner: MinerRef;
  /** Start of the minute, ms. */
  bucketMs: number;
  reason: RejectReason;
  count: number;
}
