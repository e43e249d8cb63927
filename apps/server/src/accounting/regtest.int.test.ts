import { blockSubsidy, coinParams } from '@manjam/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNode } from '../coins/bitcoin/node/node.js';
import { parseConfig } from '../config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { BalancesRepository } from '../db/repositories/balances.js';
import { BlockLifecycleRepository } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../test/support/devchain/snapshot.js';
import { PoolEvents } from '../events.js';
import { startAccounting, type AccountingService } from './index.js';
import {
  createUserMiner,
  createWalletMiner,
  insertShare,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import {
  findBlock,
  newAddress,
  receivedBy,
  stratumNetworkDifficulty,
} from '../../test/support/accounting/regtest.js';
import { runPayoutChild } from '../../test/support/accounting/run-payout-child.js';
import { RpcAccountingChain } from '../coins/bitcoin/wallet.js';

const logger = pino({ level: 'silent' });
const config = parseConfig({});
const fee = (value: bigint): bigint => (value * 100n) / 10_000n;
const net = (value: bigint): bigint => value - fee(value);

describe.each(['BTC', 'LTC'] as const)('accounting on a real %s regtest chain', (coin: BitcoinFamilyCoin) => {
  let dev: DevChain;
  let node: ChainNode;
  let database: TestDatabase;
  let D = 0;
  const services: AccountingService[] = [];
  const open = async (): Promise<AccountingService> => {
    const service = await startAccounting({
      config,
      db: database.db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[coin, RpcAccountingChain.fromNode(node)]]),
      loop: false,
    });
    services.push(service);
    return service;
  };
  const balance = (m: MinerFixture): Promise<bigint> =>
    new BalancesRepository(database.db).get(m.payeeId, coin);
  const miners = new Map<string, { miner: MinerFixture; address: string }>();
  const user = async (name: string): Promise<MinerFixture> => {
    const address = await newAddress(node);
    const miner = await createUserMiner(database.db, coin, { payoutAddress: address, threshold: '0.001' });
    miners.set(name, { miner, address });
    return miner;
  };
  const share = (
    miner: MinerFixture,
    difficulty: number,
    scheme: 'pps-plus' | 'pplns' | 'solo',
    height: number,
    at: Date,
  ) => insertShare(database.db, coin, miner, { difficulty, networkDifficulty: D, height, scheme, at });

  beforeAll(async () => {
    dev =
      coin === 'BTC' ? await startBtcTestChain({ logger }) : await startLtcTestChain({ logger, mweb: 'off' });
    node = new ChainNode({ coin, rpc: dev.rpc, walletRpc: dev.walletRpc });
    database = await openTestDatabase('postgres');
    D = await stratumNetworkDifficulty(node, coin);
  });

  afterAll(async () => {
    for (const service of services) await service.stop();
    node?.close();
    await database?.drop();
    await dev?.stop();
  });

  it('credits PPS+, its fee split, PPLNS and SOLO exactly as the formulas say once the blocks mature', async () => {
    const a = await user('A');
    const walletAddress = await newAddress(node);
    const b = await createWalletMiner(database.db, coin, walletAddress);
    miners.set('B', { miner: b, address: walletAddress });
    const [s, p1, p2] = [await user('S'), await user('P1'), await user('P2')];
    const height = (await node.getBlockCount()) + 1;
    const t = Date.now() - 60_000;
    await share(a, D / 4, 'pps-plus', height, new Date(t + 1));
    await share(b, D / 2, 'pps-plus', height, new Date(t + 2));
    await share(p1, D / 2, 'pplns', height, new Date(t + 3));
    await share(p2, D / 2, 'pplns', height, new Date(t + 4));
    await share(s, D / 8, 'solo', height, new Date(t + 5));
    await node.wallet.call('sendtoaddress', [await newAddress(node), 1]);
    const ppsPlus = await findBlock(database.db, coin, dev, node, {
      scheme: 'pps-plus',
      finder: a,
      networkDifficulty: D,
      at: new Date(t + 10),
    });
    const solo = await findBlock(database.db, coin, dev, node, {
      scheme: 'solo',
      finder: s,
      networkDifficulty: D,
      at: new Date(t + 11),
    });
    const pplns = await findBlock(database.db, coin, dev, node, {
      scheme: 'pplns',
      finder: p1,
      networkDifficulty: D,
      at: new Date(t + 12),
    });
    expect(ppsPlus.fees).toBeGreaterThan(0n);
    const service = await open();
    await service.runOnce();
    const blocks = new BlockLifecycleRepository(database.db);
    expect((await blocks.get(ppsPlus.id))?.status).toBe('pending');
    await dev.mine(100);
    await service.runOnce();
    for (const id of [ppsPlus.id, solo.id, pplns.id])
      expect((await blocks.get(id))?.status).toBe('confirmed');

    const S0 = blockSubsidy(coinParams(coin, 'regtest'), height);
    const feeShare = net(ppsPlus.fees);
    expect(await balance(a)).toBe(net(S0 / 4n) + feeShare / 3n);
    expect(await balance(b)).toBe(net(S0 / 2n) + (feeShare * 2n) / 3n);
    expect(await balance(s)).toBe(net(solo.reward));
    expect(await balance(p1)).toBe(net(pplns.reward) / 2n);
    expect(await balance(p2)).toBe(net(pplns.reward) / 2n);
    expect(service.metrics().cycle_errors_total).toBe(0);
  });

  it('orphans a matured block after invalidateblock and reverses exactly its credits, while PPS credits stand', async () => {
    const tMiner = await user('T');
    const height = (await node.getBlockCount()) + 1;
    await share(tMiner, D / 4, 'pps-plus', height, new Date());
    const found = await findBlock(database.db, coin, dev, node, {
      scheme: 'solo',
      finder: tMiner,
      networkDifficulty: D,
      at: new Date(),
    });
    const service = await open();
    await service.runOnce();
    await dev.mine(100);
    await service.runOnce();
    const pps = net(blockSubsidy(coinParams(coin, 'regtest'), height) / 4n);
    expect(await balance(tMiner)).toBe(pps + net(found.reward));
    await node.invalidateBlock(found.hash);
    await service.runOnce();
    expect((await new BlockLifecycleRepository(database.db).get(found.id))?.status).toBe('orphaned');
    expect(await balance(tMiner)).toBe(pps);
    const entries = await new LedgerRepository(database.db).entriesForBlock(found.id);
    expect(entries.reduce((sum, e) => sum + e.amount, 0n)).toBe(0n);
    expect(entries.filter((e) => e.reason === 'reversal')).toHaveLength(2);
    // A block mined now to the same address on the same parent in the same second would be the
    // invalidated block again (Litecoin Core rejects it as a duplicate): mine elsewhere.
    await dev.mine(102, await newAddress(node));
  });

  it('puts a block orphaned by invalidateblock back to pending after reconsiderblock, and credits it at maturity', async () => {
    const rMiner = await user('R');
    const found = await findBlock(database.db, coin, dev, node, {
      scheme: 'solo',
      finder: rMiner,
      networkDifficulty: D,
      at: new Date(),
    });
    const service = await open();
    const blocks = new BlockLifecycleRepository(database.db);
    await service.runOnce();
    // bcoin forgets an invalidated block: keep it to offer it again.
    const raw = await node.rpc.call<string>('getblock', [found.hash, 0]);
    await node.invalidateBlock(found.hash);
    await service.runOnce();
    expect((await blocks.get(found.id))?.status).toBe('orphaned');
    // The node goes back to the branch holding the block: a reorg back.
    await node.reconsiderBlock(found.hash);
    // bcoin clears the mark but stays on its tip until the block is offered again.
    if ((await node.getBlockCount()) < found.height) await node.rpc.call('submitblock', [raw]);
    expect(await node.getBlockHash(found.height)).toBe(found.hash);
    await service.runOnce();
    expect(await blocks.get(found.id)).toMatchObject({ status: 'pending', credited: false });
    expect(await balance(rMiner)).toBe(0n);
    await dev.mine(100);
    await service.runOnce();
    expect((await blocks.get(found.id))?.status).toBe('confirmed');
    expect(await balance(rMiner)).toBe(net(found.reward));
    expect(service.metrics().blocks_reinstated_total).toBe(1);
  });

  it('pays every balance with one sendmany and the node shows each miner address received exactly it', async () => {
    const before = new Map<string, bigint>();
    for (const [name, { miner }] of miners) before.set(name, await balance(miner));
    const service = await open();
    const [run] = await service.runPayouts(coin);
    expect(run?.status).toBe('sent');
    // By name, so a miner left out says which (seen once in a full run: 6 of 7 paid).
    const nameOf = new Map([...miners].map(([name, { address }]) => [address, name]));
    expect({
      paid: (run?.payouts ?? []).map((p) => nameOf.get(p.address) ?? p.address).sort(),
      deferred: run?.deferred,
    }).toEqual({ paid: [...miners.keys()].sort(), deferred: 0 });
    expect(run?.payouts).toHaveLength(miners.size);
    await dev.mine(1);
    for (const [name, { miner, address }] of miners) {
      expect(await receivedBy(node, address)).toBe(before.get(name));
      expect(await balance(miner)).toBe(0n);
    }
    expect((await service.runPayouts(coin))[0]?.status).toBe('nothing-to-pay');
    const rows = await new PayoutsRepository(database.db).payoutsOfRun(run?.runId ?? 0n);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['confirmed']));
    expect(await service.checkBalances()).toEqual([]);
  });

  it('survives kill -9 between sendmany and recording: restart reconciles, exactly one payment', async () => {
    const c = await user('C');
    await share(c, D / 8, 'pps-plus', (await node.getBlockCount()) + 1, new Date());
    await (await open()).runOnce();
    const owed = await balance(c);
    expect(owed).toBeGreaterThan(0n);
    const signal = await runPayoutChild(
      { coin, databaseUrl: database.url, schema: database.schema, rpc: dev.rpc, walletRpc: dev.walletRpc },
      'after-send',
    );
    expect(signal).toBe('SIGKILL');
    const [intent] = await new PayoutsRepository(database.db).runsWithStatus(coin, ['intent']);
    expect(intent).toBeDefined();
    expect(await balance(c)).toBe(0n);
    const restarted = await open();
    const run = await new PayoutsRepository(database.db).getRun(intent?.id ?? 0n);
    expect(run?.status).toBe('sent');
    await dev.mine(1);
    expect(await receivedBy(node, miners.get('C')?.address ?? '')).toBe(owed);
    expect((await restarted.runPayouts(coin))[0]?.status).toBe('nothing-to-pay');
    expect(await receivedBy(node, miners.get('C')?.address ?? '')).toBe(owed);
    expect(await restarted.checkBalances()).toEqual([]);
  }, 300_000); // a second process compiling TypeScript on a busy 2-core machine is slow to start
});
