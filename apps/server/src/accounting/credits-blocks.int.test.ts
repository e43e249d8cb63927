import { pino } from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { BlockLifecycleRepository } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { SettlementsRepository } from '../db/repositories/settlements.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startAccounting, type AccountingService } from './index.js';
import {
  createUserMiner,
  createWalletMiner,
  insertBlock,
  insertShare,
  regtestAddress,
} from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';

const COIN = 'BTC';
/** Regtest BTC subsidy at heights 150-299 (50 BTC halved once). */
const SUBSIDY = 2_500_000_000n;
const config = parseConfig({});
const logger = pino({ level: 'silent' });

describeEachDatabase('credits and block lifecycle', (db) => {
  const chain = new MemoryChain(200);
  const events = new PoolEvents();
  const statuses: string[] = [];
  events.on('block.status', (e) => statuses.push(`${e.height}:${e.status}`));
  let base = Date.now();
  const later = (seconds: number): Date => new Date(base + seconds * 1000);
  const open = (): Promise<AccountingService> =>
    startAccounting({ config, db: db(), logger, events, chains: new Map([[COIN, chain]]), loop: false });
  const balance = (payeeId: number): Promise<bigint> => new BalancesRepository(db()).get(payeeId, COIN);
  const poolBalance = async (): Promise<bigint> =>
    balance(await new LedgerRepository(db()).ensurePoolPayee(COIN));
  const blockEntries = async (blockId: number) =>
    (await new LedgerRepository(db()).entriesForBlock(blockId))
      .map((e) => [e.reason, e.payeeId, e.amount] as const)
      .sort((x, y) => x[1] - y[1] || Number(x[2] - y[2]));
  const mature = async (service: AccountingService, height: number): Promise<void> => {
    chain.extend(height + 99 - chain.tip());
    await service.runOnce();
  };

  it('credits each PPS+ share w/W x S x (1 - f) once, and the pool its fee', async () => {
    const a = await createUserMiner(db(), COIN);
    const b = await createWalletMiner(db(), COIN, regtestAddress('wallet-b'));
    for (const miner of [a, a])
      await insertShare(db(), COIN, miner, {
        difficulty: 1,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: later(1),
      });
    await insertShare(db(), COIN, b, {
      difficulty: 3,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: later(2),
    });
    const service = await open();
    const poolBefore = await poolBalance();
    await service.runOnce();
    await service.runOnce();
    expect(await balance(a.payeeId)).toBe(4_950_000n);
    expect(await balance(b.payeeId)).toBe(7_425_000n);
    expect((await poolBalance()) - poolBefore).toBe(125_000n);
    expect(service.metrics().shares_credited_total).toBe(3);
    expect(await service.checkBalances()).toEqual([]);
  });

  it('shares a PPS+ block’s transaction fees over the last 2 x W of shares once the block matures', async () => {
    base += 60_000;
    const c = await createUserMiner(db(), COIN);
    const d = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, c, {
      difficulty: 8,
      networkDifficulty: 10,
      height: 201,
      scheme: 'pps-plus',
      at: later(1),
    });
    await insertShare(db(), COIN, d, {
      difficulty: 8,
      networkDifficulty: 10,
      height: 201,
      scheme: 'pps-plus',
      at: later(2),
    });
    await insertShare(db(), COIN, c, {
      difficulty: 8,
      networkDifficulty: 10,
      height: 201,
      scheme: 'pps-plus',
      at: later(3),
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(db(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'pps-plus',
      reward: SUBSIDY + 12_345n,
      subsidy: SUBSIDY,
      fees: 12_345n,
      networkDifficulty: 10,
      finder: c,
      at: later(4),
    });
    const service = await open();
    await service.runOnce();
    const pending = await new BlockLifecycleRepository(db()).get(blockId);
    expect(pending).toMatchObject({ status: 'pending', confirmations: 1, credited: false });
    expect(await blockEntries(blockId)).toEqual([]);
    chain.extend(98);
    await service.runOnce();
    expect((await new BlockLifecycleRepository(db()).get(blockId))?.status).toBe('pending');
    await mature(service, height);
    const pool = await new LedgerRepository(db()).ensurePoolPayee(COIN);
    expect(await new BlockLifecycleRepository(db()).get(blockId)).toMatchObject({
      status: 'confirmed',
      confirmations: 100,
      credited: true,
    });
    // fee 123 (1 %), 12 222 split 12:8 (c's oldest share is cut at the window edge), remainder 1.
    expect(await blockEntries(blockId)).toEqual([
      ['fee', pool, 1n],
      ['fee', pool, 123n],
      ['pplns', c.payeeId, 7_333n],
      ['pplns', d.payeeId, 4_888n],
    ]);
    expect(statuses).toContain(`${height}:confirmed`);
  });

  it('splits a PPLNS block reward over the window and keeps its effort for the blocks page', async () => {
    base += 60_000;
    const e = await createUserMiner(db(), COIN);
    const f = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, e, {
      difficulty: 5,
      networkDifficulty: 10,
      height: 200,
      scheme: 'pplns',
      at: later(1),
    });
    await insertShare(db(), COIN, f, {
      difficulty: 15,
      networkDifficulty: 10,
      height: 200,
      scheme: 'pplns',
      at: later(2),
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(db(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'pplns',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: f,
      at: later(3),
    });
    const service = await open();
    await mature(service, height);
    const block = await new BlockLifecycleRepository(db()).get(blockId);
    expect(block?.status).toBe('confirmed');
    const effort = (
      await db().query<{ effort: number }>('SELECT effort FROM blocks WHERE id = $1', [blockId])
    ).rows[0]?.effort;
    // 5 + 10: f's share (difficulty 15) was mined against a network difficulty of 10, a block's
    // worth of work at most.
    expect(effort).toBe(1.5);
    expect(await balance(e.payeeId)).toBe(618_750_000n);
    expect(await balance(f.payeeId)).toBe(1_856_250_000n);
  });

  it('pays a SOLO finder at maturity and reverses it when a deep reorg orphans the block', async () => {
    base += 60_000;
    const g = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, g, {
      difficulty: 1,
      networkDifficulty: 10,
      height: 200,
      scheme: 'solo',
      at: later(1),
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(db(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: g,
      at: later(2),
    });
    const service = await open();
    await mature(service, height);
    expect(await balance(g.payeeId)).toBe(2_475_000_000n);
    const branch = [...chain.hashes];
    chain.reorg(height, 105);
    await service.runOnce();
    expect((await new BlockLifecycleRepository(db()).get(blockId))?.status).toBe('orphaned');
    expect(await balance(g.payeeId)).toBe(0n);
    const sum = (await new LedgerRepository(db()).entriesForBlock(blockId)).reduce(
      (s, x) => s + x.amount,
      0n,
    );
    expect(sum).toBe(0n);
    expect(statuses).toContain(`${height}:orphaned`);
    expect(await service.checkBalances()).toEqual([]);
    // The chain goes back to the branch holding the block: its coins may have been spent on the
    // other branch, so the reversed credits are not re-written; the operator is alerted instead.
    chain.switchTo(branch, 6);
    await service.runOnce();
    expect((await new BlockLifecycleRepository(db()).get(blockId))?.status).toBe('orphaned');
    expect(await balance(g.payeeId)).toBe(0n);
    const alerts = await new OperatorAlertsRepository(db()).open();
    expect(alerts.map((a) => [a.kind, a.key])).toContainEqual([
      'block-returned',
      `block-returned:BTC:${blockId}`,
    ]);
  });

  it('orphans a pending block that left the chain without crediting anything, while PPS credits stand', async () => {
    base += 60_000;
    const h = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, h, {
      difficulty: 2,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: later(1),
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(db(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'pps-plus',
      reward: SUBSIDY + 999n,
      subsidy: SUBSIDY,
      fees: 999n,
      networkDifficulty: 1000,
      finder: h,
      at: later(2),
    });
    const service = await open();
    await service.runOnce();
    chain.reorg(height, 2);
    await service.runOnce();
    expect(await new BlockLifecycleRepository(db()).get(blockId)).toMatchObject({
      status: 'orphaned',
      credited: false,
    });
    expect(await blockEntries(blockId)).toEqual([]);
    expect(await balance(h.payeeId)).toBe(4_950_000n);
  });

  it('puts an orphaned block back to pending when a reorg returns it to the main chain, and credits it at maturity', async () => {
    base += 60_000;
    const r = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, r, {
      difficulty: 1,
      networkDifficulty: 10,
      height: 200,
      scheme: 'solo',
      at: later(1),
    });
    const [hash] = chain.extend(1);
    const height = chain.tip();
    const blockId = await insertBlock(db(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: r,
      at: later(2),
    });
    const service = await open();
    await service.runOnce();
    const branch = [...chain.hashes];
    chain.reorg(height, 2);
    await service.runOnce();
    expect((await new BlockLifecycleRepository(db()).get(blockId))?.status).toBe('orphaned');
    // The other branch loses: the chain is back on the one holding the block, now longer.
    chain.switchTo(branch, 3);
    await service.runOnce();
    expect(await new BlockLifecycleRepository(db()).get(blockId)).toMatchObject({
      status: 'pending',
      credited: false,
    });
    expect(statuses).toContain(`${height}:pending`);
    expect(await balance(r.payeeId)).toBe(0n);
    await mature(service, height);
    expect((await new BlockLifecycleRepository(db()).get(blockId))?.status).toBe('confirmed');
    expect(await balance(r.payeeId)).toBe(2_475_000_000n);
    expect(service.metrics().blocks_reinstated_total).toBe(1);
    expect(await service.checkBalances()).toEqual([]);
  });

  it('follows a block submitted without a clear answer: pending once on the chain, rejected when the chain went on without it', async () => {
    base += 60_000;
    const q = await createUserMiner(db(), COIN);
    const [hash] = chain.extend(1);
    const onChain = await insertBlock(db(), COIN, {
      height: chain.tip(),
      hash: hash ?? '',
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: q,
      at: later(1),
      status: 'submitted',
    });
    const lost = await insertBlock(db(), COIN, {
      height: chain.tip() + 1,
      hash: 'ab'.repeat(32),
      scheme: 'solo',
      reward: SUBSIDY,
      subsidy: SUBSIDY,
      fees: 0n,
      networkDifficulty: 10,
      finder: q,
      at: later(2),
      status: 'submitted',
    });
    const service = await open();
    await service.runOnce();
    const blocks = new BlockLifecycleRepository(db());
    expect((await blocks.get(onChain))?.status).toBe('pending');
    expect((await blocks.get(lost))?.status).toBe('submitted');
    chain.extend(7);
    await service.runOnce();
    expect((await blocks.get(lost))?.status).toBe('rejected');
    expect(await blockEntries(lost)).toEqual([]);
  });

  it('reports a share with a zero network difficulty and still credits the shares around it', async () => {
    base += 60_000;
    const r = await createUserMiner(db(), COIN);
    await insertShare(db(), COIN, r, {
      difficulty: 1,
      networkDifficulty: 0,
      height: 200,
      scheme: 'pps-plus',
      at: later(1),
    });
    await insertShare(db(), COIN, r, {
      difficulty: 1,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: later(2),
    });
    const service = await open();
    await service.runOnce();
    expect(await balance(r.payeeId)).toBe(2_475_000n);
    expect(service.metrics().shares_unvaluable_total).toBe(1);
    expect(service.metrics().cycle_errors_total).toBe(0);
  });

  it('settles a closed day: average hashrate, amount credited, network difficulty and the scheme', async () => {
    const m = await createUserMiner(db(), COIN);
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [hour, difficulty] of [
      [10, 2],
      [11, 4],
    ] as const) {
      await insertShare(db(), COIN, m, {
        difficulty,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: new Date(`${day}T${hour}:00:00Z`),
      });
    }
    const service = await open();
    await service.runOnce();
    await service.runOnce();
    const rows = await new SettlementsRepository(db()).listForPayee(m.payeeId, COIN);
    expect(rows).toEqual([
      {
        payeeId: m.payeeId,
        coin: COIN,
        day,
        avgHashrate: (6 * 2 ** 32) / 86_400,
        amount: 14_850_000n,
        networkDifficulty: 1000,
        scheme: 'pps-plus',
      },
    ]);
    expect(service.metrics().cycle_errors_total).toBe(0);
  });
});
