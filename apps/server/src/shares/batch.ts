import { randomUUID } from 'node:crypto';
import { COIN_IDS, PAYOUT_SCHEMES, type CoinId, type PayoutScheme } from '../config/core.js';
import { FOUND_BLOCK_STATUSES, type FoundBlockStatus } from '../db/repositories/blocks.js';
import { REJECT_REASONS, type RejectReason } from '../db/repositories/shares.js';
import {
  minerRef,
  type AcceptedShare,
  type FoundBlockRecord,
  type Identity,
  type MinerRef,
  type RejectCount,
} from './types.js';

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

// Miners are stored by value (not database ids), so a batch written while the database was
// down resolves its payees when it returns.
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
  if (kind === 'u' && typeof who === 'number' && typeof username === 'string')
    identity = { kind: 'user', userId: who, username };
  else if (kind === 'w' && typeof who === 'string') identity = { kind: 'wallet', address: who };
  else throw new Error('bad miner identity');
  return minerRef(coin as CoinId, identity, worker);
}

const num = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error('bad number');
  return v;
};
const scheme = (v: unknown): PayoutScheme => {
  if (!PAYOUT_SCHEMES.includes(v as PayoutScheme)) throw new Error('bad scheme');
  return v as PayoutScheme;
};

/**
 * Parses one line of the old spill file (stratum-spill/shares.jsonl, one whole batch per line),
 * read once at start to move it into the journal; throws on anything malformed.
 */
export function decodeLegacyBatch(line: string): ShareBatch {
  const raw = JSON.parse(line) as {
    id?: unknown;
    s?: unknown[][];
    r?: unknown[][];
    b?: Record<string, unknown>[];
  };
  if (typeof raw.id !== 'string' || !Array.isArray(raw.s) || !Array.isArray(raw.r) || !Array.isArray(raw.b)) {
    throw new Error('bad spilled batch');
  }
  return {
    id: raw.id,
    shares: raw.s.map(decodeShare),
    rejects: raw.r.map(decodeReject),
    blocks: raw.b.map(decodeBlock),
  };
}

function decodeShare(s: unknown[]): AcceptedShare {
  return {
    miner: decodeMiner(s[0]),
    difficulty: num(s[1]),
    actualDifficulty: num(s[2]),
    networkDifficulty: num(s[3]),
    height: num(s[4]),
    scheme: scheme(s[5]),
    atMs: num(s[6]),
  };
}

function decodeReject(r: unknown[]): RejectCount {
  if (!REJECT_REASONS.includes(r[2] as RejectReason)) throw new Error('bad reason');
  return { miner: decodeMiner(r[0]), bucketMs: num(r[1]), reason: r[2] as RejectReason, count: num(r[3]) };
}

function decodeBlock(b: Record<string, unknown>): FoundBlockRecord {
  if (!FOUND_BLOCK_STATUSES.includes(b.status as FoundBlockStatus) || typeof b.hash !== 'string')
    throw new Error('bad block');
  return {
    miner: decodeMiner(b.miner),
    height: num(b.height),
    hash: b.hash,
    scheme: scheme(b.scheme),
    reward: BigInt(String(b.reward)),
    subsidy: BigInt(String(b.subsidy)),
    fees: BigInt(String(b.fees)),
    networkDifficulty: num(b.networkDifficulty),
    shareDifficulty: num(b.shareDifficulty),
    status: b.status as FoundBlockStatus,
    submitResult: typeof b.submitResult === 'string' ? b.submitResult : null,
    atMs: num(b.atMs),
  };
}

// Journal format: one record per line, a JSON array tagged by its first element:
//   ["s", miner, difficulty, actualDifficulty, networkDifficulty, height, scheme, atMs]  accepted share
//   ["r", miner, bucketMs, reason, count]                                                reject count
//   ["b", {block}]                                                                       found block
// The batch a record belongs to is its segment file's name (see journal.ts).

/** Each miner's JSON, built once: encoding a share is then one string concatenation. */
const minerJson = new WeakMap<MinerRef, string>();

function minerText(m: MinerRef): string {
  let text = minerJson.get(m);
  if (text === undefined) {
    text = JSON.stringify(encodeMiner(m));
    minerJson.set(m, text);
  }
  return text;
}

/** The journal line of an accepted share (hot path: no intermediate objects). */
export function shareLine(s: AcceptedShare): string {
  return `["s",${minerText(s.miner)},${s.difficulty},${s.actualDifficulty},${s.networkDifficulty},${s.height},"${s.scheme}",${s.atMs}]\n`;
}

export function rejectLine(r: RejectCount): string {
  return JSON.stringify(['r', encodeMiner(r.miner), r.bucketMs, r.reason, r.count]) + '\n';
}

export function blockLine(b: FoundBlockRecord): string {
  const block = {
    ...b,
    miner: encodeMiner(b.miner),
    reward: String(b.reward),
    subsidy: String(b.subsidy),
    fees: String(b.fees),
  };
  return JSON.stringify(['b', block]) + '\n';
}

/** Every line of a batch, in the journal format (used to move old spilled batches into the journal). */
export function batchLines(batch: ShareBatch): string {
  return (
    batch.shares.map(shareLine).join('') +
    batch.rejects.map(rejectLine).join('') +
    batch.blocks.map(blockLine).join('')
  );
}

/** Adds one journal line (without its newline) to `batch`; throws on anything malformed. */
export function applyLine(batch: ShareBatch, line: string): void {
  const raw = JSON.parse(line) as unknown;
  if (!Array.isArray(raw)) throw new Error('bad journal line');
  const [tag, ...rest] = raw as unknown[];
  if (tag === 's') batch.shares.push(decodeShare(rest));
  else if (tag === 'r') batch.rejects.push(decodeReject(rest));
  else if (tag === 'b' && typeof rest[0] === 'object' && rest[0] !== null)
    batch.blocks.push(decodeBlock(rest[0] as Record<string, unknown>));
  else throw new Error('bad journal line');
}
