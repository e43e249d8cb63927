import { randomUUID } from 'node:crypto';
import { COIN_IDS, PAYOUT_SCHEMES, type CoinId, type PayoutScheme } from '../config/index.js';
import { FOUND_BLOCK_STATUSES, type FoundBlockStatus } from '../db/repositories/blocks.js';
import { REJECT_REASONS, type RejectReason } from '../db/repositories/shares.js';
import { minerRef, type AcceptedShare, type FoundBlockRecord, type Identity, type MinerRef, type RejectCount } from './types.js';

/** What one flush writes in one transaction, under one id (exactly-once on retry). */
export interface ShareBatch {
  id: string;
  shares: AcceptedShare[];
  rejects: RejectCount[];
  blocks: FoundBlockRecord[];
}

export function newBatch(): ShareBatch {
  return { id: randomUUID(), shares: [], rejects: [], blocks: [] };
}

export function batchIsEmpty(batch: ShareBatch): boolean {
  return batch.shares.length === 0 && batch.rejects.length === 0 && batch.blocks.length === 0;
}

// Spill format: one JSON object per batch per line. Miners are stored by value (not database
// ids), so a batch written while the database was down resolves its payees when it returns.
type SpilledMiner = [CoinId, 'u' | 'w', number | string, string, string];

function encodeMiner(m: MinerRef): SpilledMiner {
  return m.identity.kind === 'user'
    ? [m.coin, 'u', m.identity.userId, m.identity.username, m.worker]
    : [m.coin, 'w', m.identity.address, '', m.worker];
}

function decodeMiner(value: unknown): MinerRef {
  if (!Array.isArray(value) || value.length !== 5) throw new Error('bad miner');
  const [coin, kind, who, username, worker] = value as unknown[];
  if (!COIN_IDS.includes(coin as CoinId) || typeof worker !== 'string') throw new Error('bad miner');
  let identity: Identity;
  if (kind === 'u' && typeof who === 'number' && typeof username === 'string') identity = { kind: 'user', userId: who, username };
  else if (kind === 'w' && typeof who === 'string') identity = { kind: 'wallet', address: who };
  else throw new Error('bad miner identity');
  return minerRef(coin as CoinId, identity, worker);
}

export function encodeBatch(batch: ShareBatch): string {
  return JSON.stringify({
    id: batch.id,
    s: batch.shares.map((s) => [encodeMiner(s.miner), s.difficulty, s.actualDifficulty, s.networkDifficulty, s.height, s.scheme, s.atMs]),
    r: batch.rejects.map((r) => [encodeMiner(r.miner), r.bucketMs, r.reason, r.count]),
    b: batch.blocks.map((b) => ({ ...b, miner: encodeMiner(b.miner), reward: String(b.reward), subsidy: String(b.subsidy), fees: String(b.fees) })),
  });
}

const num = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error('bad number');
  return v;
};
const scheme = (v: unknown): PayoutScheme => {
  if (!PAYOUT_SCHEMES.includes(v as PayoutScheme)) throw new Error('bad scheme');
  return v as PayoutScheme;
};

/** Parses one spilled line; throws on anything malformed (the caller keeps the line aside). */
export function decodeBatch(line: string): ShareBatch {
  const raw = JSON.parse(line) as { id?: unknown; s?: unknown[][]; r?: unknown[][]; b?: Record<string, unknown>[] };
  if (typeof raw.id !== 'string' || !Array.isArray(raw.s) || !Array.isArray(raw.r) || !Array.isArray(raw.b)) {
    throw new Error('bad spilled batch');
  }
  return {
    id: raw.id,
    shares: raw.s.map((s) => ({
      miner: decodeMiner(s[0]), difficulty: num(s[1]), actualDifficulty: num(s[2]), networkDifficulty: num(s[3]),
      height: num(s[4]), scheme: scheme(s[5]), atMs: num(s[6]),
    })),
    rejects: raw.r.map((r) => {
      if (!REJECT_REASONS.includes(r[2] as RejectReason)) throw new Error('bad reason');
      return { miner: decodeMiner(r[0]), bucketMs: num(r[1]), reason: r[2] as RejectReason, count: num(r[3]) };
    }),
    blocks: raw.b.map((b) => {
      if (!FOUND_BLOCK_STATUSES.includes(b.status as FoundBlockStatus) || typeof b.hash !== 'string') throw new Error('bad block');
      return {
        miner: decodeMiner(b.miner), height: num(b.height), hash: b.hash, scheme: scheme(b.scheme),
        reward: BigInt(String(b.reward)), subsidy: BigInt(String(b.subsidy)), fees: BigInt(String(b.fees)),
        networkDifficulty: num(b.networkDifficulty), shareDifficulty: num(b.shareDifficulty), status: b.status as FoundBlockStatus,
        submitResult: typeof b.submitResult === 'string' ? b.submitResult : null, atMs: num(b.atMs),
      };
    }),
  };
}
