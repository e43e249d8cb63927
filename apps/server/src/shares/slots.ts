import type { ShareRow } from '../db/repositories/shares.js';
import type { AcceptedShare, MinerRef } from './types.js';

/** The share log consumer's slot: ten seconds of one worker's shares become one row per key. */
export const SHARE_SLOT_MS = 10_000;

/** `shares` rows of accepted shares: slot rows when `slotMs` is set, else one row per share. */
export function shareRows(
  shares: readonly AcceptedShare[],
  workerId: (m: MinerRef) => number,
  payeeId: (m: MinerRef) => number,
  slotMs?: number,
): ShareRow[] {
  if (slotMs !== undefined) return slotShareRows(shares, slotMs, workerId, payeeId);
  return shares.map((s) => shareRow(s, workerId(s.miner), payeeId(s.miner)));
}

/** One share's `shares` row (a slot row starts as its first share's). */
function shareRow(s: AcceptedShare, workerId: number, payeeId: number): ShareRow {
  return {
    workerId,
    payeeId,
    coin: s.miner.coin,
    difficulty: s.difficulty,
    networkDifficulty: s.networkDifficulty,
    height: s.height,
    scheme: s.scheme,
    createdAtMs: s.atMs,
  };
}

/**
 * Slot rows: a batch's accepted shares folded into one `shares` row per
 * (worker, coin, slot, share difficulty, network difficulty, height, scheme), its `shareCount`
 * the shares folded in and its time the last of them.
 *
 * Why these keys keep the money exact: a share's PPS value floor(S(height) * min(w, W) * 2^32 / W)
 * depends only on its share difficulty w, the network difficulty W and the subsidy of its height,
 * so a row of n shares with one (w, W, height) is worth exactly n times one share's value, the
 * same fixed-point amount to the last 2^-32 of a base unit as the shares credited one by one
 * (accounting/math.ts multiplies by the count; nothing is rounded differently). The scheme keeps
 * PPS+ apart from PPLNS and SOLO; the worker fixes the payee. Vardiff changes a worker's
 * difficulty rarely, so a slot usually holds one row per worker.
 *
 * Time: a row stands at its last share's time, so a row is inside a PPLNS window "at or before
 * the block" only when all its shares are; a row that crosses the window's far edge counts only
 * the work inside the window, as a single share does. A window thus moves by at most one slot of
 * each worker at either end (see docs/CAPACITY.md). Hashrate and charts read share_stats, whose
 * minute rows are written from the shares themselves as before.
 */
export function slotShareRows(
  shares: readonly AcceptedShare[],
  slotMs: number,
  workerId: (m: MinerRef) => number,
  payeeId: (m: MinerRef) => number,
): ShareRow[] {
  if (!Number.isInteger(slotMs) || slotMs <= 0) throw new RangeError(`invalid share slot: ${slotMs} ms`);
  const rows = new Map<string, ShareRow & { shareCount: number }>();
  for (const s of shares) {
    const slot = Math.floor(s.atMs / slotMs);
    const worker = workerId(s.miner);
    const key = `${worker}:${slot}:${s.difficulty}:${s.networkDifficulty}:${s.height}:${s.scheme}`;
    const row = rows.get(key);
    if (row) {
      row.shareCount++;
      row.createdAtMs = Math.max(row.createdAtMs, s.atMs);
      continue;
    }
    rows.set(key, { ...shareRow(s, worker, payeeId(s.miner)), shareCount: 1 });
  }
  return [...rows.values()];
}
