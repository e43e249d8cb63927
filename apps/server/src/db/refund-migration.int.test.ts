// Migration 0660 on rows written before it: payout refunds that were labelled `reversal` become
// `refund`, orphan reversals stay, balances do not move, failed runs get a reason, and the daily
// settlement rows that counted a refund as earnings are corrected by the next accounting cycle.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccounting } from '../accounting/index.js';
import { createUserMiner, insertBlock, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import { parseConfig } from '../config/index.js';
import { PoolEvents } from '../events.js';
import { listMigrations, migrate } from './migrate.js';
import { BalancesRepository } from './repositories/balances.js';
import { LedgerRepository } from './repositories/ledger.js';
import { SettlementsRepository } from './repositories/settlements.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import type { Database } from './types.js';

const VERSION = 660;
const before = listMigrations().filter((m) => m.version < VERSION);
const DAY = '2025-01-10';
const ONLY_REFUND_DAY = '2025-01-11';
const LATER_DAY = '2025-03-01';
const at = (day: string, hour: number): Date => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

/** A failed run with one payout, its debit and its refund, written as the code before 0660 wrote them. */
async function oldFailedPayout(db: Database, miner: MinerFixture, amount: bigint, error: string, when: Date) {
  const run = await db.query<{ id: bigint }>(
    `INSERT INTO payout_runs (coin, status, comment, error, created_at) VALUES ('BTC', 'failed', $1, $2, $3) RETURNING id`,
    [`old-run-${miner.payeeId}-${when.getTime()}`, error, when.toISOString()],
  );
  const payout = await db.query<{ id: bigint }>(
    `INSERT INTO payouts (run_id, payee_id, coin, address, amount, status, created_at)
     VALUES ($1, $2, 'BTC', 'rb1qold', $3, 'failed', $4) RETURNING id`,
    [run.rows[0]?.id, miner.payeeId, amount, when.toISOString()],
  );
  const payoutId = payout.rows[0]?.id ?? 0n;
  // The old CHECK had no 'refund': a refund went in as 'reversal' with its payout's id.
  await new LedgerRepository(db).append([
    {
      payeeId: miner.payeeId,
      coin: 'BTC',
      amount: -amount,
      reason: 'payout',
      reference: `payout:${payoutId}`,
      payoutId,
      createdAt: when,
    },
    {
      payeeId: miner.payeeId,
      coin: 'BTC',
      amount,
      reason: 'reversal',
      reference: `payout-reversal:${payoutId}`,
      payoutId,
      createdAt: new Date(when.getTime() + 60_000),
    },
  ]);
  return run.rows[0]?.id ?? 0n;
}

async function settlementRow(
  db: Database,
  miner: MinerFixture,
  day: string,
  amount: bigint,
  hashrate: number,
) {
  await db.query(
    `INSERT INTO settlements (payee_id, coin, day, avg_hashrate, amount, network_difficulty, scheme)
     VALUES ($1, 'BTC', $2::date, $3, $4, 1000, 'pps-plus')`,
    [miner.payeeId, day, hashrate, amount],
  );
}

describe.each(DATABASE_KINDS)('migration 0660 on rows written before it [%s]', (kind) => {
  let handle: TestDatabase;
  let miner: MinerFixture;
  let refundOnly: MinerFixture;
  let blockId = 0;
  const runs: Record<string, bigint> = {};
  let balancesBefore: bigint[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind, before);
    const db = handle.db;
    miner = await createUserMiner(db, 'BTC');
    refundOnly = await createUserMiner(db, 'BTC');
    blockId = await insertBlock(db, 'BTC', {
      height: 300,
      hash: 'ab'.repeat(32),
      scheme: 'solo',
      reward: 2_000n,
      subsidy: 2_000n,
      fees: 0n,
      networkDifficulty: 1000,
      finder: miner,
      at: at(DAY, 8),
    });
    const ledger = new LedgerRepository(db);
    await ledger.append([
      {
        payeeId: miner.payeeId,
        coin: 'BTC',
        amount: 1_000n,
        reason: 'pps',
        reference: `pps:old:${miner.payeeId}`,
        createdAt: at(DAY, 9),
      },
      {
        payeeId: miner.payeeId,
        coin: 'BTC',
        amount: 200n,
        reason: 'solo',
        reference: `block:${blockId}:finder`,
        blockId,
        createdAt: at(DAY, 10),
      },
      // The block was orphaned: its credit taken back, a true reversal (negative earnings).
      {
        payeeId: miner.payeeId,
        coin: 'BTC',
        amount: -200n,
        reason: 'reversal',
        reference: `reversal:block:${blockId}:finder`,
        blockId,
        createdAt: at(DAY, 11),
      },
    ]);
    runs.short = await oldFailedPayout(
      db,
      miner,
      500n,
      'Insufficient funds: wallet holds 0.00000100 BTC',
      at(DAY, 12),
    );
    runs.interrupted = await oldFailedPayout(
      db,
      refundOnly,
      300n,
      'interrupted before sending: no wallet transaction carries this run',
      at(ONLY_REFUND_DAY, 12),
    );
    // The rows the old settlement wrote: the refund counted as earnings (1,000 + 200 - 200 + 500).
    await settlementRow(db, miner, DAY, 1_500n, 12.5);
    await settlementRow(db, refundOnly, ONLY_REFUND_DAY, 300n, 0);
    // A later settled day: the cycle's usual refresh (the last two settled days) does not reach
    // the days above, so only the queued correction can fix them.
    await settlementRow(db, miner, LATER_DAY, 0n, 1);
    balancesBefore = await Promise.all(
      [miner, refundOnly].map((m) => new BalancesRepository(db).get(m.payeeId, 'BTC')),
    );
    expect(await migrate(db)).toEqual(listMigrations().filter((m) => m.version >= VERSION));
  });
  afterAll(async () => {
    await handle?.drop();
  });

  it('re-labels a failed payout’s refund as refund and keeps an orphaned block’s reversal as reversal', async () => {
    const reasons = async (m: MinerFixture) =>
      (await new LedgerRepository(handle.db).entriesForPayee(m.payeeId, 'BTC')).map((e) => [
        e.reference.split(':')[0],
        e.reason,
      ]);
    expect(await reasons(miner)).toEqual([
      ['pps', 'pps'],
      ['block', 'solo'],
      ['reversal', 'reversal'],
      ['payout', 'payout'],
      ['payout-reversal', 'refund'],
    ]);
    expect(await reasons(refundOnly)).toEqual([
      ['payout', 'payout'],
      ['payout-reversal', 'refund'],
    ]);
  });

  it('moves no balance: every cached balance still equals its ledger sum', async () => {
    const after = await Promise.all(
      [miner, refundOnly].map((m) => new BalancesRepository(handle.db).get(m.payeeId, 'BTC')),
    );
    expect(after).toEqual(balancesBefore);
    expect(await new BalancesRepository(handle.db).mismatches()).toEqual([]);
  });

  it('gives each old failed run the reason its error named', async () => {
    const rows = await handle.db.query<{ id: bigint; failure: string | null }>(
      'SELECT id, failure FROM payout_runs ORDER BY id',
    );
    expect(rows.rows.map((r) => [r.id, r.failure])).toEqual([
      [runs.short, 'wallet-short'],
      [runs.interrupted, 'not-sent'],
    ]);
  });

  it('corrects the settled days that counted a refund on the next accounting cycle, and only their amounts', async () => {
    const accounting = await startAccounting({
      config: parseConfig({}),
      db: handle.db,
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      chains: new Map(),
      creditOnlyCoins: ['BTC'],
      loop: false,
      now: () => at(LATER_DAY, 12),
    });
    try {
      await accounting.runOnce();
    } finally {
      await accounting.stop();
    }
    const repo = new SettlementsRepository(handle.db);
    const mine = await repo.listForPayee(miner.payeeId, 'BTC');
    // 1,000 PPS + 200 SOLO - 200 orphan reversal: the 500 refund is gone, the day's hashrate kept.
    expect(mine.find((r) => r.day === DAY)).toMatchObject({ amount: 1_000n, avgHashrate: 12.5 });
    // A day whose only movement was a refund has no reward row.
    expect((await repo.listForPayee(refundOnly.payeeId, 'BTC')).map((r) => r.day)).not.toContain(
      ONLY_REFUND_DAY,
    );
    expect((await handle.db.query('SELECT 1 FROM settlement_redo')).rowCount).toBe(0);
  });
});
