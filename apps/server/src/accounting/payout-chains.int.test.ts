// Payouts on the real dev chains (bcoin for BTC, Litecoin Core for LTC) to addresses OUTSIDE the
// pool's wallet, as miners' own wallets are, and the faults around them: kill -9 before and after
// sendmany, a reorg below maturity and back, an orphan after the payout, an empty wallet. Each
// case checks the chain itself (the UTXO set) against the ledger and prints its figures.
import { blockSubsidy, coinParams } from '@manjam/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNode } from '../coins/bitcoin/node/node.js';
import { RawJsonNumber } from '../rpc/json-rpc.js';
import { parseConfig } from '../config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { BalancesRepository } from '../db/repositories/balances.js';
import { BlockLifecycleRepository } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../test/support/devchain/snapshot.js';
import { PoolEvents } from '../events.js';
import { rpcAmount, unitsFromRpc } from '../coins/bitcoin/amounts.js';
import { startAccounting, type AccountingService, type PayoutRunResult } from './index.js';
import { createUserMiner, insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import {
  findBlock,
  outsideAddress,
  paidOnChain,
  stratumNetworkDifficulty,
} from '../../test/support/accounting/regtest.js';
import { runPayoutChild } from '../../test/support/accounting/run-payout-child.js';
import { RpcAccountingChain } from '../coins/bitcoin/wallet.js';

const logger = pino({ level: 'silent' });
const config = parseConfig({});
const net = (value: bigint): bigint => value - (value * 100n) / 10_000n;

describe.each(['BTC', 'LTC'] as const)(
  'payouts on a real %s chain to addresses outside the pool wallet',
  (coin: BitcoinFamilyCoin) => {
    let dev: DevChain;
    let node: ChainNode;
    let database: TestDatabase;
    let D = 0;
    const services: AccountingService[] = [];
    const figures: string[] = [];
    /** Coins each outside address received on chain, summed over every payout transaction seen. */
    const onChain = new Map<string, bigint>();

    const open = async (intentGraceMs = 0): Promise<AccountingService> => {
      const service = await startAccounting({
        config,
        db: database.db,
        logger,
        events: new PoolEvents(),
        chains: new Map([[coin, RpcAccountingChain.fromNode(node)]]),
        loop: false,
        intentGraceMs,
      });
      services.push(service);
      return service;
    };
    const balance = (m: MinerFixture): Promise<bigint> =>
      new BalancesRepository(database.db).get(m.payeeId, coin);
    const outsider = async (label: string): Promise<{ miner: MinerFixture; address: string }> => {
      const address = outsideAddress(coin, `${label}-${Date.now()}`);
      return {
        miner: await createUserMiner(database.db, coin, { payoutAddress: address, threshold: '0.001' }),
        address,
      };
    };
    /** A PPS share worth `fraction` of the next block's subsidy. */
    const earn = async (miner: MinerFixture, fraction: number): Promise<void> => {
      const height = (await node.getBlockCount()) + 1;
      await insertShare(database.db, coin, miner, {
        difficulty: D * fraction,
        networkDifficulty: D,
        height,
        scheme: 'pps-plus',
        at: new Date(),
      });
    };
    /** Net payout debits of a payee in the ledger (payouts minus their reversals), as a positive amount. */
    const debited = async (m: MinerFixture): Promise<bigint> =>
      -(await new LedgerRepository(database.db).entriesForPayee(m.payeeId, coin))
        .filter((e) => e.payoutId !== null)
        .reduce((sum, e) => sum + e.amount, 0n);
    /** Mines the run's transaction into a block and reads what it paid from the UTXO set. */
    const confirm = async (run: PayoutRunResult | undefined): Promise<void> => {
      expect(run?.status).toBe('sent');
      await dev.mine(1, outsideAddress(coin, `miner-${Date.now()}`));
      const paid = await paidOnChain(node, run?.txid ?? '', (run?.payouts.length ?? 0) + 1);
      for (const p of run?.payouts ?? []) {
        expect(paid.get(p.address)).toBe(p.amount);
        onChain.set(p.address, (onChain.get(p.address) ?? 0n) + p.amount);
      }
    };

    /** The raw transaction as the wallet keeps it (bcoin: its wallet HTTP API; Core: gettransaction). */
    const walletTransactionHex = async (txid: string): Promise<string> =>
      coin === 'BTC'
        ? ((await node.wallet.getJson<{ tx: string }>(`/wallet/primary/tx/${txid}`))?.tx ?? '')
        : (await node.wallet.call<{ hex: string }>('gettransaction', [txid])).hex;

    const openAlertKeys = async (): Promise<string[]> =>
      (await new OperatorAlertsRepository(database.db).open()).map((a) => a.key);

    /** What the wallet can spend now: its unspent outputs, less coinbases not yet mature. */
    const spendable = async (): Promise<bigint> => {
      let total = 0n;
      for (const u of await node.wallet.call<
        { txid: string; vout: number; amount: number; confirmations: number }[]
      >('listunspent', [1])) {
        if (u.confirmations < 100) {
          const out = await node.rpc.call<{ coinbase?: boolean } | null>('gettxout', [u.txid, u.vout, true]);
          if (out?.coinbase) continue;
        }
        total += unitsFromRpc(u.amount);
      }
      return total;
    };

    beforeAll(async () => {
      dev =
        coin === 'BTC'
          ? await startBtcTestChain({ logger })
          : await startLtcTestChain({ logger, mweb: 'off' });
      node = new ChainNode({ coin, rpc: dev.rpc, walletRpc: dev.walletRpc });
      database = await openTestDatabase('postgres');
      D = await stratumNetworkDifficulty(node, coin);
    });

    afterAll(async () => {
      for (const service of services) await service.stop();
      node?.close();
      await database?.drop();
      await dev?.stop();
      process.stdout.write(`[payout drill ${coin}]\n  ${figures.join('\n  ')}\n`);
    });

    it('pays three outside addresses in three runs in a row, each confirmed and visible at its address on chain', async () => {
      const miners = [await outsider('a'), await outsider('b'), await outsider('c')];
      const service = await open();
      for (let run = 1; run <= 3; run++) {
        for (const [i, { miner }] of miners.entries()) await earn(miner, 0.01 * (i + run));
        await service.runOnce();
        const [result] = await service.runPayouts(coin);
        expect(result?.payouts).toHaveLength(3);
        await confirm(result);
        await service.runOnce();
        expect((await new PayoutsRepository(database.db).getRun(result?.runId ?? 0n))?.status).toBe(
          'recorded',
        );
        for (const { miner } of miners) expect(await balance(miner)).toBe(0n);
      }
      for (const { miner, address } of miners) expect(onChain.get(address)).toBe(await debited(miner));
      expect(service.metrics().cycle_errors_total).toBe(0);
      const total = miners.reduce((sum, m) => sum + (onChain.get(m.address) ?? 0n), 0n);
      figures.push(
        `3 runs x 3 outside addresses: ${total} base units on chain == ${total} debited, every run recorded, 0 cycle errors`,
      );
    });

    it('kill -9 after the intent and before sendmany: the run fails once, its debits come back once, the next run pays once', async () => {
      const { miner, address } = await outsider('before-send');
      await earn(miner, 0.02);
      await (await open()).runOnce();
      const owed = await balance(miner);
      const signal = await runPayoutChild(
        { coin, databaseUrl: database.url, schema: database.schema, rpc: dev.rpc, walletRpc: dev.walletRpc },
        'before-send',
      );
      expect(signal).toBe('SIGKILL');
      const [intent] = await new PayoutsRepository(database.db).runsWithStatus(coin, ['intent']);
      expect(await balance(miner)).toBe(0n);
      const restarted = await open(); // reconciles at start: not in the wallet, past the grace time
      expect((await new PayoutsRepository(database.db).getRun(intent?.id ?? 0n))?.status).toBe('failed');
      await restarted.runOnce();
      expect(await balance(miner)).toBe(owed);
      const reversals = (await new LedgerRepository(database.db).entriesForPayee(miner.payeeId, coin)).filter(
        (e) => e.reference.startsWith('payout-reversal:'),
      );
      expect(reversals).toHaveLength(1);
      await confirm((await restarted.runPayouts(coin))[0]);
      expect(onChain.get(address)).toBe(owed);
      expect(await debited(miner)).toBe(owed);
      figures.push(
        `kill -9 before sendmany: owed ${owed}, reversed 1x, paid on chain ${onChain.get(address)} (once)`,
      );
    }, 300_000);

    it('kill -9 right after sendmany: the restart finds the transaction in the wallet and nothing is paid twice', async () => {
      const { miner, address } = await outsider('after-send');
      await earn(miner, 0.03);
      await (await open()).runOnce();
      const owed = await balance(miner);
      const signal = await runPayoutChild(
        { coin, databaseUrl: database.url, schema: database.schema, rpc: dev.rpc, walletRpc: dev.walletRpc },
        'after-send',
      );
      expect(signal).toBe('SIGKILL');
      const [intent] = await new PayoutsRepository(database.db).runsWithStatus(coin, ['intent']);
      const restarted = await open(3_600_000); // found in the wallet, whatever the grace time
      const run = await new PayoutsRepository(database.db).getRun(intent?.id ?? 0n);
      expect(run?.status).toBe('sent');
      await dev.mine(1, outsideAddress(coin, `after-send-${Date.now()}`));
      expect((await paidOnChain(node, run?.txid ?? '', 2)).get(address)).toBe(owed);
      expect((await restarted.runPayouts(coin))[0]?.status).toBe('nothing-to-pay');
      expect(await debited(miner)).toBe(owed);
      expect(await balance(miner)).toBe(0n);
      figures.push(
        `kill -9 after sendmany: owed ${owed}, found by reconciliation as ${run?.txid?.slice(0, 16)}..., paid on chain ${owed} (once)`,
      );
    }, 300_000);

    it('a reorg that leaves a confirmed block below maturity holds its credits, and pays them once it is mature again', async () => {
      const { miner, address } = await outsider('held');
      const found = await findBlock(database.db, coin, dev, node, {
        scheme: 'solo',
        finder: miner,
        networkDifficulty: D,
        at: new Date(),
        to: outsideAddress(coin, `cb-held-${Date.now()}`),
      });
      const service = await open();
      await service.runOnce();
      await dev.mine(100, outsideAddress(coin, `mature-held-${Date.now()}`));
      await service.runOnce();
      const blocks = new BlockLifecycleRepository(database.db);
      expect((await blocks.get(found.id))?.status).toBe('confirmed');
      const credit = net(found.reward);
      expect(await balance(miner)).toBe(credit);
      const cut = await node.rpc.call<string>('getblockhash', [found.height + 50]);
      await node.invalidateBlock(cut);
      await service.runOnce();
      const held = await blocks.get(found.id);
      expect(held?.status).toBe('pending');
      expect(held?.confirmations).toBe(50);
      const during = await service.runPayouts(coin);
      expect(during[0]?.payouts.some((p) => p.payeeId === miner.payeeId) ?? false).toBe(false);
      expect(await balance(miner)).toBe(credit);
      await node.reconsiderBlock(cut);
      const missing = found.height + 99 - (await node.getBlockCount());
      if (missing > 0) await dev.mine(missing, outsideAddress(coin, `remature-${Date.now()}`));
      await service.runOnce();
      expect((await blocks.get(found.id))?.status).toBe('confirmed');
      const [paid] = await service.runPayouts(coin);
      expect(paid?.payouts.find((p) => p.payeeId === miner.payeeId)?.amount).toBe(credit);
      await confirm(paid);
      expect(onChain.get(address)).toBe(credit);
      expect(
        (await new LedgerRepository(database.db).entriesForBlock(found.id)).filter(
          (e) => e.reason === 'reversal',
        ),
      ).toHaveLength(0);
      figures.push(
        `reorg to ${held?.confirmations} confirmations: block back to pending, ${credit} held (0 paid); mature again: ${onChain.get(address)} paid once`,
      );
    });

    it('an orphan after the payout reverses the credit exactly once: the balance goes negative and nothing is paid twice', async () => {
      const { miner, address } = await outsider('orphan');
      // The payout must not spend a pool coinbase that the orphaning reorg makes immature again
      // (a reorg of 100+ blocks would drop such a payout from the mempool): none in the last 100.
      await dev.mine(100, outsideAddress(coin, `before-orphan-${Date.now()}`));
      const found = await findBlock(database.db, coin, dev, node, {
        scheme: 'solo',
        finder: miner,
        networkDifficulty: D,
        at: new Date(),
        to: outsideAddress(coin, `cb-orphan-${Date.now()}`),
      });
      const service = await open();
      await service.runOnce();
      await dev.mine(100, outsideAddress(coin, `mature-orphan-${Date.now()}`));
      await service.runOnce();
      const credit = net(found.reward);
      const [payout] = await service.runPayouts(coin);
      await confirm(payout);
      await service.runOnce(); // recorded: confirmed on chain
      expect((await new PayoutsRepository(database.db).getRun(payout?.runId ?? 0n))?.status).toBe('recorded');
      expect(onChain.get(address)).toBe(credit);
      await node.invalidateBlock(found.hash);
      await service.runOnce();
      await service.runOnce();
      expect((await new BlockLifecycleRepository(database.db).get(found.id))?.status).toBe('orphaned');
      const reversals = (await new LedgerRepository(database.db).entriesForBlock(found.id)).filter(
        (e) => e.reason === 'reversal',
      );
      expect(reversals.filter((e) => e.payeeId === miner.payeeId)).toHaveLength(1);
      expect(await balance(miner)).toBe(-credit);
      await earn(miner, 0.01);
      await service.runOnce();
      const after = await balance(miner);
      expect(after).toBeLessThan(0n);
      const [next] = await service.runPayouts(coin);
      expect(next?.payouts.some((p) => p.payeeId === miner.payeeId) ?? false).toBe(false);
      expect(await debited(miner)).toBe(credit);
      expect(await service.checkBalances()).toEqual([]);
      // The reorg took the payout transaction out of the chain, and its lock time (the height it
      // was made at, as wallets do against fee sniping) keeps it out of the mempool until the new
      // branch is as long. Then the wallet's rebroadcast (pushed here instead of waited for) puts
      // it back: the miner's address holds exactly one payment, never two.
      const missing = `payout-missing:${coin}:${payout?.runId}`;
      expect(await openAlertKeys()).toContain(missing);
      const hex = await walletTransactionHex(payout?.txid ?? '');
      const { locktime } = await node.rpc.call<{ locktime: number }>('decoderawtransaction', [hex]);
      const behind = locktime - (await node.getBlockCount());
      if (behind > 0) await dev.mine(behind, outsideAddress(coin, `past-orphan-${Date.now()}`));
      await node.rpc.call('sendrawtransaction', [hex]);
      await dev.mine(1, outsideAddress(coin, `rebroadcast-${Date.now()}`));
      expect(
        (await paidOnChain(node, payout?.txid ?? '', (payout?.payouts.length ?? 0) + 1)).get(address),
      ).toBe(credit);
      await service.runOnce();
      expect(await openAlertKeys()).not.toContain(missing);
      figures.push(
        `orphan after payout: paid ${credit} once, reversed once, payout-missing open while the reorg kept the payout out and cleared once it was back; balance ${after} carried, next run pays it nothing`,
      );
    });

    it('an empty wallet stops the run with an operator alert and keeps every balance', async () => {
      const drainTo = outsideAddress(coin, `drain-${Date.now()}`);
      try {
        await node.wallet.call('sendtoaddress', [drainTo, rpcAmount(await spendable()), '', '', true]);
      } catch (error) {
        // bcoin lists immature coinbases as unspent; it says what it can really spend.
        const available = /available=(\d+\.\d+)/.exec((error as Error).message)?.[1];
        if (!available) throw error;
        await node.wallet.call('sendtoaddress', [drainTo, new RawJsonNumber(available), '', '', true]);
      }
      await dev.mine(1, outsideAddress(coin, `drain-block-${Date.now()}`));
      const left = await spendable();
      const { miner } = await outsider('empty');
      const subsidy = net(blockSubsidy(coinParams(coin, 'regtest'), (await node.getBlockCount()) + 1));
      for (let i = 0n; i <= left / subsidy + 1n; i++) await earn(miner, 1);
      const service = await open();
      await service.runOnce();
      const owed = await balance(miner);
      expect(owed).toBeGreaterThan(left);
      const [run] = await service.runPayouts(coin);
      expect(run?.status).toBe('insufficient-funds');
      expect(await balance(miner)).toBe(owed);
      const alerts = await new OperatorAlertsRepository(database.db).open();
      expect(alerts.map((a) => a.key)).toContain(`wallet-insufficient:${coin}`);
      expect(service.metrics().payout_insufficient_funds_total).toBe(1);
      figures.push(
        `empty wallet (${left} left after draining): run refused, alert wallet-insufficient:${coin} open, balance ${owed} kept`,
      );
    });
  },
);
