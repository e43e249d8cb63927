// XMR payouts on the real dev chain (monerod regtest + monero-wallet-rpc): the pool wallet pays
// addresses of an OUTSIDE wallet (a second wallet file, opened in the same monero-wallet-rpc only
// to create addresses and to read what arrived), and a payout process that dies once `transfer`
// has answered is reconciled by the transaction's outputs, paying once. Figures are printed.
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../chain/rpc.js';
import { parseConfig, type CoinId } from '../config/index.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { openTestDatabase, type TestDatabase } from '../db/testing.js';
import { MoneroRpcClient, type MoneroCallOptions } from '../devchain/monero-rpc.js';
import { startMoneroDevChain, type MoneroDevChain } from '../devchain/monero.js';
import { PoolEvents } from '../events.js';
import { isInsufficientFunds, isNodeRejection } from './chain.js';
import type { AccountingContext } from './context.js';
import { AccountingMetrics } from './metrics.js';
import { MoneroAccountingChain } from './monero-chain.js';
import { OperatorAlarms } from './operator-alerts.js';
import { outputsOf } from './payout-plan.js';
import { reconcileIntents, reconcilePayouts } from './reconcile.js';
import { createUserMiner } from './testing/fixtures.js';

const logger = pino({ level: 'silent' });
/** XMR joins CoinId with the pool wiring (the other half of issue 18); the reconcile code is coin-agnostic. */
const XMR = 'XMR' as CoinId;
const POOL_WALLET = 'pool';
const OUTSIDE_WALLET = 'outside';
const AMOUNTS = ['amount', 'fee', 'balance', 'unlocked_balance'];
const xmr = (units: bigint): string =>
  `${units / 10n ** 12n}.${(units % 10n ** 12n).toString().padStart(12, '0')}`;

/** The wallet client of a payout process killed the moment `transfer` answered: nothing after it happens. */
class DyingWallet extends MoneroRpcClient {
  sentTxid: string | undefined;
  override async call<T = unknown>(
    method: string,
    params: Record<string, unknown> | unknown[] = {},
    options: MoneroCallOptions = {},
  ): Promise<T> {
    if (this.sentTxid !== undefined) throw new RpcError('transport', method, 'the process is dead');
    const result = await super.call<T>(method, params, options);
    if (method !== 'transfer') return result;
    this.sentTxid = (result as { tx_hash: string }).tx_hash;
    throw new RpcError('transport', method, 'killed after the wallet answered');
  }
}

describe('XMR payouts from the pool wallet to an outside wallet (real monerod + monero-wallet-rpc)', () => {
  let dev: MoneroDevChain;
  let chain: MoneroAccountingChain;
  let database: TestDatabase;
  const figures: string[] = [];

  /** Runs `fn` with the outside wallet open in monero-wallet-rpc, then reopens the pool wallet. */
  const inOutsideWallet = async <T>(fn: () => Promise<T>): Promise<T> => {
    await dev.wallet.call('close_wallet');
    try {
      await dev.wallet.call('open_wallet', { filename: OUTSIDE_WALLET, password: '' });
      return await fn();
    } finally {
      await dev.wallet.call('close_wallet').catch(() => undefined);
      await dev.wallet.call('open_wallet', { filename: POOL_WALLET, password: '' });
    }
  };
  /** Receiving addresses of the outside wallet: its primary address first when asked, then new subaddresses. */
  const outsideAddresses = (count: number, primary = false): Promise<string[]> =>
    inOutsideWallet(async () => {
      const addresses: string[] = [];
      if (primary)
        addresses.push(
          (await dev.wallet.call<{ address: string }>('get_address', { account_index: 0 })).address,
        );
      while (addresses.length < count)
        addresses.push(
          (await dev.wallet.call<{ address: string }>('create_address', { account_index: 0 })).address,
        );
      return addresses;
    });
  /** Integrated addresses of the outside wallet (its primary address with a random payment id). */
  const outsideIntegrated = (count: number): Promise<string[]> =>
    inOutsideWallet(async () => {
      const addresses: string[] = [];
      while (addresses.length < count)
        addresses.push(
          (await dev.wallet.call<{ integrated_address: string }>('make_integrated_address', {}))
            .integrated_address,
        );
      return addresses;
    });
  /** What each address of the outside wallet holds, after a refresh, in atomic units. */
  const received = (): Promise<Map<string, bigint>> =>
    inOutsideWallet(async () => {
      await dev.wallet.call('refresh');
      const { per_subaddress: rows } = await dev.wallet.call<{
        per_subaddress?: { address: string; balance: bigint }[];
      }>('get_balance', { account_index: 0 }, { bigints: AMOUNTS });
      return new Map((rows ?? []).map((row) => [row.address, row.balance]));
    });
  const feeOf = async (txid: string): Promise<bigint> =>
    (
      await dev.wallet.call<{ transfer: { fee: bigint } }>(
        'get_transfer_by_txid',
        { txid },
        { bigints: AMOUNTS },
      )
    ).transfer.fee;

  beforeAll(async () => {
    dev = await startMoneroDevChain({ logger });
    chain = new MoneroAccountingChain(dev.daemon, dev.wallet);
    database = await openTestDatabase('postgres');
    await dev.wallet.call('close_wallet');
    await dev.wallet.call('create_wallet', { filename: OUTSIDE_WALLET, password: '', language: 'English' });
    await dev.wallet.call('close_wallet');
    await dev.wallet.call('open_wallet', { filename: POOL_WALLET, password: '' });
  });

  afterAll(async () => {
    await database?.drop();
    await dev?.stop();
    process.stdout.write(`[payout drill XMR]\n  ${figures.join('\n  ')}\n`);
  });

  it('pays a standard address and a subaddress of an outside wallet in one transfer, an integrated one in its own, and the coins arrive to the atomic unit', async () => {
    const [standard, subaddress] = await outsideAddresses(2, true);
    const [integrated] = await outsideIntegrated(1);
    const outputs = new Map([
      [standard as string, 1_234_567_890_123n],
      [subaddress as string, 987_654_321_987n],
    ]);
    const comment = 'manjam-payout:XMR:first';
    const txid = await chain.sendMany(outputs, comment);
    const pending = await chain.getWalletTransaction(txid);
    expect(pending).toMatchObject({ txid, confirmations: 0, comment });
    expect(new Map(pending?.outputs.map((o) => [o.address, o.amount]))).toEqual(outputs);
    const integratedTxid = await chain.sendMany(
      new Map([[integrated as string, 5_000_000_000n]]),
      'manjam-payout:XMR:integrated',
    );
    expect((await chain.getWalletTransaction(integratedTxid))?.outputs).toEqual([
      { address: integrated, amount: 5_000_000_000n },
    ]);
    await dev.mine(10);
    expect((await chain.getWalletTransaction(txid))?.confirmations).toBe(10);
    // An integrated address pays the wallet's primary address (its payment id tells them apart).
    const arrived = await received();
    expect(arrived.get(standard as string)).toBe(1_234_567_890_123n + 5_000_000_000n);
    expect(arrived.get(subaddress as string)).toBe(987_654_321_987n);
    const paid = [...outputs.values()].reduce((a, b) => a + b, 0n);
    const got =
      (arrived.get(standard as string) ?? 0n) - 5_000_000_000n + (arrived.get(subaddress as string) ?? 0n);
    figures.push(
      `one transfer to a standard address and a subaddress of an outside wallet: paid ${xmr(paid)} XMR, received ${xmr(got)} XMR, fee ${xmr(await feeOf(txid))} XMR, 10 confirmations`,
      `an integrated address in its own transfer: paid and received ${xmr(5_000_000_000n)} XMR, fee ${xmr(await feeOf(integratedTxid))} XMR`,
    );
  });

  it('finds the transfer of a process that died before recording its txid by its outputs, records it once and pays once', async () => {
    const db = database.db;
    const [a, b] = await outsideAddresses(2);
    const payees = [
      {
        miner: await createUserMiner(db, XMR, { payoutAddress: a ?? null }),
        address: a as string,
        amount: 500_000_000_001n,
      },
      {
        miner: await createUserMiner(db, XMR, { payoutAddress: b ?? null }),
        address: b as string,
        amount: 2_000_000_000_000n,
      },
    ];
    // The run's intent, as recordIntent writes it (run + payouts in 'intent'/'pending').
    const repo = new PayoutsRepository(db);
    const comment = `manjam-payout:XMR:${Date.now()}`;
    const runId = await repo.createRun(XMR, comment);
    for (const p of payees) await repo.addPayout(runId, p.miner.payeeId, XMR, p.address, p.amount);
    const expected = outputsOf(payees);

    const dying = new DyingWallet(dev.wallet.url, 120_000);
    const died = await new MoneroAccountingChain(dev.daemon, dying)
      .sendMany(expected, comment)
      .catch((e: unknown) => e);
    expect(isNodeRejection(died)).toBe(false); // an unknown outcome: the run stays 'intent'
    const txid = dying.sentTxid as string;
    expect((await repo.getRun(runId))?.status).toBe('intent');
    // No note made it: only the outputs can tell this transaction is the run's.
    expect((await chain.getWalletTransaction(txid))?.comment).toBeUndefined();

    const metrics = new AccountingMetrics();
    const restarted: AccountingContext = {
      config: parseConfig({}),
      db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[XMR, chain]]),
      metrics,
      now: () => new Date(),
      intentGraceMs: 0,
      alarms: new OperatorAlarms(db, logger, undefined),
    };
    await reconcileIntents(restarted, XMR);
    await reconcileIntents(restarted, XMR);
    expect(await repo.getRun(runId)).toMatchObject({ status: 'sent', txid });
    expect(metrics.snapshot().payout_runs_reconciled_total).toBe(1);

    await dev.mine(10);
    await reconcilePayouts(restarted, XMR);
    expect((await repo.getRun(runId))?.status).toBe('recorded');
    const arrived = await received();
    for (const p of payees) expect(arrived.get(p.address)).toBe(p.amount);
    const sentTo = (await chain.findWalletTransactions(0)).filter((tx) =>
      tx.outputs.some((o) => o.address === a || o.address === b),
    );
    expect(sentTo.map((tx) => tx.txid)).toEqual([txid]);
    figures.push(
      `died after transfer: run ${runId} found by its outputs and recorded as sent (${txid.slice(0, 16)}…), 1 transaction to the 2 addresses, received ${xmr(
        (arrived.get(a as string) ?? 0n) + (arrived.get(b as string) ?? 0n),
      )} XMR of ${xmr(payees.reduce((s, p) => s + p.amount, 0n))} XMR owed, fee ${xmr(await feeOf(txid))} XMR`,
    );
  });

  it('keeps a sent payout known with its destinations and note when monero-wallet-rpc is killed -9 right after it', async () => {
    const [address] = await outsideAddresses(1);
    const outputs = new Map([[address as string, 750_000_000_000n]]);
    const comment = `manjam-payout:XMR:wallet-kill-${Date.now()}`;
    const txid = await chain.sendMany(outputs, comment);
    const [, walletRpc] = dev.nodeProcessIds();
    process.kill(walletRpc as number, 'SIGKILL');
    const started = Date.now();
    // The supervisor starts it again and reopens the pool wallet from its file.
    let after: Awaited<ReturnType<typeof chain.getWalletTransaction>>;
    for (;;) {
      try {
        if (dev.nodeProcessIds()[1] !== walletRpc) {
          after = await chain.getWalletTransaction(txid);
          break;
        }
      } catch (error) {
        if (Date.now() - started > 120_000) throw error;
      }
      await delay(200);
    }
    expect(after).toMatchObject({ txid, comment, confirmations: 0 });
    expect(after?.outputs).toEqual([{ address, amount: 750_000_000_000n }]);
    await dev.mine(10);
    expect((await received()).get(address as string)).toBe(750_000_000_000n);
    figures.push(
      `monero-wallet-rpc killed -9 after a transfer: back in ${Date.now() - started} ms knowing the transfer, its destination and its note (saved by the adapter)`,
    );
  });

  it('answers a run larger than the unlocked balance with a refusal accounting reads as insufficient funds, sending nothing', async () => {
    const [address] = await outsideAddresses(1);
    const unlocked = await chain.getWalletBalance();
    const before = (await chain.findWalletTransactions(0)).length;
    const refusal = await chain
      .sendMany(new Map([[address as string, unlocked + 1n]]), 'manjam-payout:XMR:too-much')
      .catch((e: unknown) => e);
    expect(isInsufficientFunds(refusal)).toBe(true);
    // An integrated address with other destinations is refused, nothing sent (the plan never asks it: paysAlone).
    const [integrated, other] = await outsideIntegrated(2);
    const refused = async (to: (string | undefined)[]): Promise<unknown> =>
      chain
        .sendMany(new Map(to.map((a) => [a as string, 1_000_000n])), 'manjam-payout:XMR:refused')
        .catch((e: unknown) => e);
    const twoIds = await refused([integrated, other]);
    const mixed = await refused([integrated, address]);
    expect([isNodeRejection(twoIds), isInsufficientFunds(twoIds), (twoIds as RpcError).code]).toEqual([
      true,
      false,
      -5,
    ]);
    expect([isNodeRejection(mixed), isInsufficientFunds(mixed)]).toEqual([true, false]);
    expect((await chain.findWalletTransactions(0)).length).toBe(before);
    figures.push(
      `unlocked ${xmr(unlocked)} XMR, asked 1 atomic unit more: "${(refusal as Error).message}"; two integrated addresses: "${(twoIds as Error).message}"; an integrated address and another: "${(mixed as Error).message}" (${(mixed as RpcError).code})`,
    );
  });
});
