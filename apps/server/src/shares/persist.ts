import { algorithmOf } from '@manjam/protocol';
import type { CoinId } from '../config/index.js';
import type { Database, Queryable } from '../db/index.js';
import { BlocksRepository } from '../db/repositories/blocks.js';
import { PayeesRepository } from '../db/repositories/payees.js';
import { SharesRepository, type ShareStatRow } from '../db/repositories/shares.js';
import { WorkersRepository, type WorkerCounters } from '../db/repositories/workers.js';
import type { ShareBatch } from './batch.js';
import { shareRows } from './slots.js';
import type { MinerRef, RejectCount } from './types.js';

/**
 * Database ids learnt for payee keys and worker keys. Entries are added only after the
 * transaction that created them commits; the writer clears them when they grow past a bound.
 */
export interface IdCache {
  payees: Map<string, number>;
  workers: Map<string, number>;
}

export function newIdCache(): IdCache {
  return { payees: new Map(), workers: new Map() };
}

export interface FlushedPayee {
  coin: CoinId;
  payeeId: number;
  userId: number | null;
  workerIds: Set<number>;
  count: number;
}

export interface PersistedBlock {
  coin: CoinId;
  height: number;
  hash: string;
  status: string;
  finderUserId: number | null;
}

export interface PersistResult {
  /** The batch was already in the database (a retried flush). */
  duplicate: boolean;
  payees: FlushedPayee[];
  blocks: PersistedBlock[];
}

const MINUTE = 60_000;

export interface PersistOptions {
  /**
   * Ids of batches merged into this one (the share log consumer writes several messages at
   * once); if any of them is already stored, the transaction is rolled back (throws).
   */
  alsoClaim?: readonly string[];
  /** Store the accepted shares as slot rows of this many ms (shares/slots.ts); unset: a row per share. */
  slotMs?: number;
}

/**
 * Writes one batch in one transaction: its accepted shares, their per-worker statistics (exact:
 * committed with the shares), its found blocks (a row each, whatever `slotMs`), and the reject
 * counts of batches journaled by older versions. Ids learnt are added to `cache` after commit.
 */
export async function persistBatch(
  db: Database,
  batch: ShareBatch,
  cache: IdCache,
  { alsoClaim = [], slotMs }: PersistOptions = {},
): Promise<PersistResult> {
  const learnt = newIdCache();
  const result = await db.transaction(async (tx) => {
    const shares = new SharesRepository(tx);
    if (!(await shares.claimBatch(batch.id))) return { duplicate: true, payees: [], blocks: [] };
    if ((await shares.claimBatches(alsoClaim)) < alsoClaim.length)
      throw new Error(`a share batch merged into ${batch.id} is already stored`);
    const { counted, workerIds, payeeIds } = await resolveBatch(tx, batch, cache, learnt);
    const idOf = (m: MinerRef) => workerIds.get(m.workerKey) as number;
    const payeeOf = (m: MinerRef) => payeeIds.get(m.payeeKey) as number;
    await shares.insertMany(shareRows(batch.shares, idOf, payeeOf, slotMs));
    await shares.addStats(statRows(counted, idOf));
    await new WorkersRepository(tx).addCounters(counterRows(counted, idOf));
    const blocks = await insertBlocks(tx, batch, idOf, payeeOf);
    return { duplicate: false, payees: flushedPayees(batch, idOf, payeeOf), blocks };
  });
  learn(cache, learnt);
  return result;
}

/**
 * Writes reject counts gathered over one stats interval in one transaction: one `share_stats`
 * upsert per (worker, minute) and one `workers` update per worker, however many shares were
 * rejected. Counts of a worker without a row (no accepted share yet) are not kept (resolveBatch). Not journaled and not claimed under a batch id: see ShareWriter for what a crash loses.
 */
export async function persistRejects(
  db: Database,
  rejects: readonly RejectCount[],
  cache: IdCache,
): Promise<void> {
  if (rejects.length === 0) return;
  const learnt = newIdCache();
  const batch: ShareBatch = { id: '', shares: [], rejects: [...rejects], blocks: [] };
  await db.transaction(async (tx) => {
    const { counted, workerIds } = await resolveBatch(tx, batch, cache, learnt);
    const idOf = (m: MinerRef) => workerIds.get(m.workerKey) as number;
    await new SharesRepository(tx).addStats(statRows(counted, idOf));
    await new WorkersRepository(tx).addCounters(counterRows(counted, idOf));
  });
  learn(cache, learnt);
}

function learn(cache: IdCache, learnt: IdCache): void {
  for (const [key, id] of learnt.payees) cache.payees.set(key, id);
  for (const [key, id] of learnt.workers) cache.workers.set(key, id);
}

interface ResolvedBatch {
  /** The batch without the rejects of workers that have no row (dropped: see resolveBatch). */
  counted: ShareBatch;
  workerIds: Map<string, number>;
  payeeIds: Map<string, number>;
}

/**
 * Ids of the batch's workers and payees. Only an accepted share (or a found block, which is one)
 * creates a payee or a worker row, or brings a deleted worker back: a login or a rejected share is
 * something anyone can send under any account's name. Rejects of a worker are counted
 * once a row exists (hidden or not); before its first accepted share they are left out, so a
 * stranger's garbage writes nothing into the account it names.
 */
async function resolveBatch(
  tx: Queryable,
  batch: ShareBatch,
  cache: IdCache,
  learnt: IdCache,
): Promise<ResolvedBatch> {
  const earning = new Map<string, MinerRef>();
  for (const s of batch.shares) earning.set(s.miner.workerKey, s.miner);
  for (const b of batch.blocks) earning.set(b.miner.workerKey, b.miner);
  const payeeIds = await resolvePayees(tx, earning, cache.payees, learnt.payees);
  const workerIds = await resolveWorkers(tx, earning, payeeIds, cache.workers, learnt.workers);
  const rejecting = new Map<string, MinerRef>();
  for (const r of batch.rejects) {
    const id = workerIds.get(r.miner.workerKey) ?? cache.workers.get(r.miner.workerKey);
    if (id === undefined) rejecting.set(r.miner.workerKey, r.miner);
    else workerIds.set(r.miner.workerKey, id);
  }
  const found = await new WorkersRepository(tx).findIds(
    [...rejecting.values()].map((m) => ({
      key: m.workerKey,
      coin: m.coin,
      userId: m.identity.kind === 'user' ? m.identity.userId : null,
      address: m.identity.kind === 'wallet' ? m.identity.address : null,
      name: m.worker,
    })),
  );
  for (const [key, id] of found) {
    workerIds.set(key, id);
    learnt.workers.set(key, id);
  }
  const rejects = batch.rejects.filter((r) => workerIds.has(r.miner.workerKey));
  return { counted: { ...batch, rejects }, workerIds, payeeIds };
}

async function resolvePayees(
  tx: Queryable,
  miners: Map<string, MinerRef>,
  cache: Map<string, number>,
  learnt: Map<string, number>,
): Promise<Map<string, number>> {
  const payees = new PayeesRepository(tx);
  const ids = new Map<string, number>();
  for (const m of miners.values()) {
    if (ids.has(m.payeeKey)) continue;
    let id = cache.get(m.payeeKey);
    if (id === undefined) {
      id =
        m.identity.kind === 'user'
          ? await payees.ensureUser(m.coin, m.identity.userId)
          : await payees.ensureWallet(m.coin, m.identity.address);
      learnt.set(m.payeeKey, id);
    }
    ids.set(m.payeeKey, id);
  }
  return ids;
}

/** Worker ids: from the cache, else created (or found) in this transaction and added to `learnt`. */
async function resolveWorkers(
  tx: Queryable,
  miners: Map<string, MinerRef>,
  payeeIds: Map<string, number>,
  cache: Map<string, number>,
  learnt: Map<string, number>,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const list: MinerRef[] = [];
  for (const m of miners.values()) {
    const id = cache.get(m.workerKey);
    if (id === undefined) list.push(m);
    else ids.set(m.workerKey, id);
  }
  if (list.length === 0) return ids;
  const keys = list.map((m) => ({
    payeeId: payeeIds.get(m.payeeKey) as number,
    coin: m.coin,
    name: m.worker,
    algorithm: algorithmOf(m.coin),
  }));
  const byPayeeName = await new WorkersRepository(tx).ensure(keys);
  list.forEach((m, i) => {
    const key = keys[i] as (typeof keys)[number];
    const id = byPayeeName.get(`${key.payeeId}:${key.name}`);
    if (id === undefined) throw new Error(`worker ${m.workerKey} was not created`);
    ids.set(m.workerKey, id);
    learnt.set(m.workerKey, id);
  });
  return ids;
}

function statRows(batch: ShareBatch, idOf: (m: MinerRef) => number): ShareStatRow[] {
  const rows = new Map<string, ShareStatRow>();
  const row = (m: MinerRef, atMs: number): ShareStatRow => {
    const bucketMs = Math.floor(atMs / MINUTE) * MINUTE;
    const workerId = idOf(m);
    const key = `${workerId}:${bucketMs}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        workerId,
        bucket: new Date(bucketMs),
        accepted: 0,
        acceptedDifficulty: 0,
        stale: 0,
        duplicate: 0,
        lowDifficulty: 0,
        invalid: 0,
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const s of batch.shares) {
    const r = row(s.miner, s.atMs);
    r.accepted++;
    r.acceptedDifficulty += s.difficulty;
  }
  for (const rej of batch.rejects) {
    const r = row(rej.miner, rej.bucketMs);
    if (rej.reason === 'stale') r.stale += rej.count;
    else if (rej.reason === 'duplicate') r.duplicate += rej.count;
    else if (rej.reason === 'low_difficulty') r.lowDifficulty += rej.count;
    else r.invalid += rej.count;
  }
  return [...rows.values()];
}

function counterRows(batch: ShareBatch, idOf: (m: MinerRef) => number): WorkerCounters[] {
  const rows = new Map<number, WorkerCounters & { lastMs: number }>();
  const row = (m: MinerRef) => {
    const workerId = idOf(m);
    let r = rows.get(workerId);
    if (!r) {
      r = { workerId, accepted: 0, rejected: 0, stale: 0, lastShareAt: null, bestDifficulty: 0, lastMs: 0 };
      rows.set(workerId, r);
    }
    return r;
  };
  for (const s of batch.shares) {
    const r = row(s.miner);
    r.accepted++;
    r.lastMs = Math.max(r.lastMs, s.atMs);
    r.bestDifficulty = Math.max(r.bestDifficulty, s.actualDifficulty);
  }
  for (const rej of batch.rejects) {
    const r = row(rej.miner);
    r.rejected += rej.count;
    if (rej.reason === 'stale') r.stale += rej.count;
  }
  return [...rows.values()].map(({ lastMs, ...r }) => ({
    ...r,
    lastShareAt: lastMs > 0 ? new Date(lastMs) : null,
  }));
}

async function insertBlocks(
  tx: Queryable,
  batch: ShareBatch,
  idOf: (m: MinerRef) => number,
  payeeOf: (m: MinerRef) => number,
): Promise<PersistedBlock[]> {
  const repo = new BlocksRepository(tx);
  const inserted: PersistedBlock[] = [];
  for (const b of batch.blocks) {
    const id = await repo.insertFound({
      coin: b.miner.coin,
      height: b.height,
      hash: b.hash,
      finderWorkerId: idOf(b.miner),
      finderPayeeId: payeeOf(b.miner),
      scheme: b.scheme,
      reward: b.reward,
      subsidy: b.subsidy,
      fees: b.fees,
      networkDifficulty: b.networkDifficulty,
      shareDifficulty: b.shareDifficulty,
      status: b.status,
      submitResult: b.submitResult,
      foundAt: new Date(b.atMs),
    });
    if (id === undefined) continue;
    const finderUserId = b.miner.identity.kind === 'user' ? b.miner.identity.userId : null;
    inserted.push({ coin: b.miner.coin, height: b.height, hash: b.hash, status: b.status, finderUserId });
  }
  return inserted;
}

function flushedPayees(
  batch: ShareBatch,
  idOf: (m: MinerRef) => number,
  payeeOf: (m: MinerRef) => number,
): FlushedPayee[] {
  const out = new Map<number, FlushedPayee>();
  for (const s of batch.shares) {
    const payeeId = payeeOf(s.miner);
    let p = out.get(payeeId);
    if (!p) {
      const userId = s.miner.identity.kind === 'user' ? s.miner.identity.userId : null;
      p = { coin: s.miner.coin, payeeId, userId, workerIds: new Set(), count: 0 };
      out.set(payeeId, p);
    }
    p.workerIds.add(idOf(s.miner));
    p.count++;
  }
  return [...out.values()];
}
