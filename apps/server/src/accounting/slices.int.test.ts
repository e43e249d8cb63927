import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import type { Database } from '../db/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import {
  DATABASE_KINDS,
  openTestDatabase,
  type DatabaseKind,
  type TestDatabase,
} from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startTestApi } from '../../test/support/http.js';
import { startAccounting, type AccountingService } from './index.js';
import { buildBacklog, type Backlog } from '../../test/support/accounting/backlog.js';

const SPEC = { blocks: 60, sharesPerBlock: 20, miners: 3 };
const SMALL = { sliceBlocks: 7, sliceShares: 150 };
const WHOLE = { sliceBlocks: 10_000, sliceShares: 100_000 };
/** The longest an API query may wait while the cycle works (a 2-core machine shared with others). */
const ANSWER_BOUND_MS = 2_000;
const logger = pino({ level: 'silent' });

interface Run {
  handle: TestDatabase;
  backlog: Backlog;
  open(): Promise<AccountingService>;
  /** Each miner's balance (in backlog order), then the pool's. */
  balances(): Promise<bigint[]>;
  /** Block credit entries (PPS entries are one per payee and batch: their count follows the slices). */
  blockEntries(): Promise<number>;
}

async function prepare(kind: DatabaseKind, slices: typeof SMALL): Promise<Run> {
  const handle = await openTestDatabase(kind);
  const db: Database = handle.db;
  const backlog = await buildBacklog(db, SPEC);
  const config = parseConfig({ accounting: slices });
  return {
    handle,
    backlog,
    open: () =>
      startAccounting({
        config,
        db,
        logger,
        events: new PoolEvents(),
        chains: new Map([[backlog.coin, backlog.chain]]),
        loop: false,
      }),
    async balances() {
      const repo = new BalancesRepository(db);
      const pool = await new LedgerRepository(db).ensurePoolPayee(backlog.coin);
      const ids = [...backlog.miners.map((m) => m.payeeId), pool];
      return Promise.all(ids.map((id) => repo.get(id, backlog.coin)));
    },
    async blockEntries() {
      const result = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_entries WHERE block_id IS NOT NULL',
      );
      return result.rows[0]?.n ?? 0;
    },
  };
}

const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

for (const kind of DATABASE_KINDS) {
  describe(`accounting in bounded slices [${kind}]`, () => {
    const runs: Run[] = [];
    let whole: { balances: bigint[]; blockEntries: number } | undefined;
    const fresh = async (slices: typeof SMALL): Promise<Run> => {
      const run = await prepare(kind, slices);
      runs.push(run);
      return run;
    };
    beforeAll(async () => {
      const run = await fresh(WHOLE);
      const service = await run.open();
      await service.runOnce();
      expect(service.metrics().slices_total).toBe(3); // credits, plans, tracking: one slice each
      whole = { balances: await run.balances(), blockEntries: await run.blockEntries() };
      expect(sum(whole.balances)).toBe(run.backlog.value);
      await service.stop();
    });
    afterAll(async () => {
      for (const run of runs) await run.handle.drop();
    });

    it('credits a backlog worked 7 blocks and 150 share rows at a time to the base unit as one unsliced cycle does', async () => {
      const run = await fresh(SMALL);
      const service = await run.open();
      await service.runOnce();
      // 2,400 share rows / 150 (+1 empty), 60 blocks / 7 to plan and to track (+1 short page each)
      expect(service.metrics().slices_total).toBe(17 + 9 + 9);
      expect(service.metrics().blocks_confirmed_total).toBe(SPEC.blocks);
      expect(await run.balances()).toEqual(whole?.balances);
      expect(await run.blockEntries()).toBe(whole?.blockEntries);
      expect(await service.checkBalances()).toEqual([]);
      await service.stop();
    });

    it(`answers the API within ${ANSWER_BOUND_MS} ms every time while the sliced cycle works through the backlog`, async () => {
      const run = await fresh(SMALL);
      const api = await startTestApi(run.handle.db);
      const service = await run.open();
      let running = true;
      const cycle = service.runOnce().finally(() => (running = false));
      const waits: number[] = [];
      while (running) {
        const start = performance.now();
        const answer = await api.request('GET', '/api/blocks?pageSize=20');
        waits.push(performance.now() - start);
        expect(answer.status).toBe(200);
      }
      await cycle;
      await api.close();
      expect(waits.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...waits)).toBeLessThan(ANSWER_BOUND_MS);
      expect(await run.balances()).toEqual(whole?.balances);
      await service.stop();
    });

    it('stopped after every slice and started again, loses and doubles nothing', async () => {
      const run = await fresh(SMALL);
      let restarts = 0;
      for (; restarts < 100; restarts++) {
        const service = await run.open();
        const cycle = service.runOnce();
        await service.stop(); // the cycle ends at its next slice boundary, as a kill between slices
        await cycle;
        expect(await service.checkBalances()).toEqual([]);
        const paid = sum(await run.balances());
        expect(paid).toBeLessThanOrEqual(run.backlog.value);
        if (paid === run.backlog.value) break;
      }
      expect(restarts).toBeGreaterThan(10);
      const last = await run.open();
      await last.runOnce();
      expect(await run.balances()).toEqual(whole?.balances);
      expect(await run.blockEntries()).toBe(whole?.blockEntries);
      await last.stop();
    });
  });
}
