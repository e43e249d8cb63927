// XMR payouts on the real dev chain (monerod regtest + monero-wallet-rpc): the pool wallet pays
// addresses of an OUTSIDE wallet (a second wallet file, opened in the same monero-wallet-rpc only
// to create addresses and to read what arrived). Crash drills through the real run path
// (runPayouts('XMR') in a child process, testing/payout-child.ts): the process killed -9 once
// `transfer` answered is reconciled by the transaction's outputs; the process AND monero-wallet-rpc
// killed before the wallet saved the transfer are reconciled by its amount (reconcile.ts, the
// double-payment window), also when the transfer stays in monerod's pool past the grace period
// (the run is held until it is mined). Each pays once. Figures are printed.
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../rpc/json-rpc.js';
import { parseConfig, type CoinId } from '../../config/index.js';
import { BalancesRepository } from '../../db/repositories/balances.js';
import { LedgerRepository } from '../../db/repositories/ledger.js';
import { OperatorAlertsRepository } from '../../db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../../db/repositories/payouts.js';
import { openTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import type { MoneroDevChain } from './devchain.js';
import { startMoneroTestChain } from '../../../test/support/coins/monero/chain-snapshot.js';
import { PoolEvents } from '../../events.js';
import { isInsufficientFunds, isNodeRejection } from '../../accounting/chain.js';
import type { AccountingContext } from '../../accounting/context.js';
import { startAccounting, type AccountingService } from '../../accounting/index.js';
import { AccountingMetrics } from '../../accounting/metrics.js';
import { MoneroAccountingChain } from './wallet.js';
import { OperatorAlarms } from '../../accounting/operator-alerts.js';
import { SkipNotices } from '../../accounting/skip-notices.js';
import { runFollowUp, runPayoutsForCoin } from '../../accounting/payouts.js';
import { createUserMiner } from '../../../test/support/accounting/fixtures.js';
import { runPayoutChild } from '../../../test/support/accounting/run-payout-child.js';

const logger = pino({ level: 'silent' });
const XMR: CoinId = 'XMR';
const POOL_WALLET = 'pool';
const OUTSIDE_WALLET = 'outside';
const AMOUNTS = ['amount', 'fee', 'balance', 'unlocked_balance'];
const xmr = (units: bigint): string =>
  `${units / 10n ** 12n}.${(units % 10n ** 12n).toString().padStart(12, '0')}`;

describe('XMR payouts from the pool wallet to an outside wallet (real monerod + monero-wallet-rpc)', () => {
  let dev: MoneroDevChain;
  let chain: MoneroAccountingChain;
  let database: TestDatabase;
  const figures: string[] = [];
  const alerts: string[] = [];

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
    dev = await startMoneroTestChain({ logger });
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

  /**
   * XMR miners, each with a payout address of its own in the outside wallet and its amount of
   * atomic units to be paid (the addresses made in one visit to the outside wallet).
   */
  const owedMiners = async (
    ...amounts: bigint[]
  ): Promise<{ payeeId: number; address: string; amount: bigint }[]> => {
    const addresses = await outsideAddresses(amounts.length);
    const miners: { payeeId: number; address: string; amount: bigint }[] = [];
    for (const [i, amount] of amounts.entries()) {
      const address = addresses[i] as string;
      const miner = await createUserMiner(database.db, XMR, { payoutAddress: address });
      await new LedgerRepository(database.db).append([
        {
          payeeId: miner.payeeId,
          coin: XMR,
          amount,
          reason: 'adjustment',
          reference: `test:${miner.payeeId}`,
        },
      ]);
      miners.push({ payeeId: miner.payeeId, address, amount });
    }
    return miners;
  };
  /** An accounting process on the pool wallet (a restart after the crash), judging intents at once. */
  const restartedAccounting = (): Promise<AccountingService> =>
    startAccounting({
      config: parseConfig({}),
      db: database.db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[XMR, chain]]),
      loop: false,
      intentGraceMs: 0,
      notifyOperator: (m) => {
        alerts.push(m.text);
        return Promise.resolve();
      },
    });
  const childSpec = (killWalletPid?: number) => ({
    coin: XMR,
    databaseUrl: database.url,
    schema: database.schema,
    monero: {
      daemonUrl: dev.daemon.url,
      walletUrl: dev.wallet.url,
      ...(killWalletPid ? { killWalletPid } : {}),
    },
  });
  /** Waits until the supervisor restarted monero-wallet-rpc (a pid other than `old`) and it answers. */
  const walletBack = async (old: number): Promise<number> => {
    const started = Date.now();
    for (;;) {
      try {
        if (dev.nodeProcessIds()[1] !== old) {
          await dev.wallet.call('get_balance', { account_index: 0 }, { bigints: AMOUNTS });
          return Date.now() - started;
        }
      } catch (error) {
        if (Date.now() - started > 120_000) throw error;
      }
      await delay(200);
    }
  };
  const sentTo = async (addresses: readonly string[]): Promise<string[]> =>
    (await chain.findWalletTransactions(0))
      .filter((tx) => tx.outputs.some((o) => addresses.includes(o.address)))
      .map((tx) => tx.txid);

  it('a payout process killed -9 the moment transfer answered is found by its outputs on restart and pays once', async () => {
    const payees = await owedMiners(500_000_000_001n, 2_000_000_000_000n);
    const signal = await runPayoutChild(childSpec(), 'after-send');
    expect(signal).toBe('SIGKILL');
    const repo = new PayoutsRepository(database.db);
    const [intent] = await repo.runsWithStatus(XMR, ['intent']);
    if (!intent) throw new Error('the killed run left no intent');
    expect((await repo.payoutsOfRun(intent.id)).map((p) => p.amount).sort()).toEqual(
      payees.map((p) => p.amount).sort(),
    );
    const service = await restartedAccounting();
    const run = await repo.getRun(intent.id);
    expect(run?.status).toBe('sent');
    // No note made it: the transaction was told apart by its outputs.
    expect((await chain.getWalletTransaction(run?.txid ?? ''))?.comment).toBeUndefined();
    await dev.mine(10);
    expect((await service.runPayouts(XMR))[0]?.status).toBe('nothing-to-pay');
    expect((await repo.getRun(intent.id))?.status).toBe('recorded');
    const arrived = await received();
    for (const p of payees) expect(arrived.get(p.address)).toBe(p.amount);
    expect(await sentTo(payees.map((p) => p.address))).toEqual([run?.txid]);
    await service.stop();
    figures.push(
      `runPayouts('XMR') in a child killed -9 after transfer: run ${intent.id} found by its outputs on restart (${run?.txid?.slice(0, 16)}…), 1 transaction, received ${xmr(
        payees.reduce((sum, p) => sum + (arrived.get(p.address) ?? 0n), 0n),
      )} XMR of ${xmr(payees.reduce((sum, p) => sum + p.amount, 0n))} XMR owed, fee ${xmr(await feeOf(run?.txid ?? ''))} XMR`,
    );
  });

  it('a payout process and monero-wallet-rpc both killed -9 between transfer and store: the restarted wallet learns the transfer from the chain without destinations, and the run is recorded by its amount, never failed and paid again', async () => {
    const payees = await owedMiners(300_000_000_007n, 400_000_000_009n);
    const [, walletPid] = dev.nodeProcessIds();
    const signal = await runPayoutChild(childSpec(walletPid), 'after-send');
    expect(signal).toBe('SIGKILL');
    const back = await walletBack(walletPid as number);
    const repo = new PayoutsRepository(database.db);
    const [intent] = await repo.runsWithStatus(XMR, ['intent']);
    if (!intent) throw new Error('the killed run left no intent');
    // The transfer is in monerod's pool; the reopened wallet never saved it. Once mined it shows
    // as an outgoing transfer with its amount but no destinations and no note.
    await dev.mine(1);
    const untold = (await chain.findWalletTransactions(0)).filter((tx) => tx.untold);
    expect(untold.map((tx) => tx.untold?.amount)).toEqual([payees.reduce((sum, p) => sum + p.amount, 0n)]);
    const service = await restartedAccounting();
    // Recorded by its amount at start, then confirmed in the same cycle (the block mined above).
    expect(await repo.getRun(intent.id)).toMatchObject({ status: 'recorded', txid: untold[0]?.txid });
    expect(alerts).toEqual([]);
    await dev.mine(10);
    expect((await service.runPayouts(XMR))[0]?.status).toBe('nothing-to-pay');
    const arrived = await received();
    for (const p of payees) expect(arrived.get(p.address)).toBe(p.amount);
    for (const p of payees) expect(await new BalancesRepository(database.db).get(p.payeeId, XMR)).toBe(0n);
    await service.stop();
    figures.push(
      `payout process and monero-wallet-rpc killed -9 after transfer, before store: wallet back in ${back} ms, the mined transfer seen without destinations for ${xmr(untold[0]?.untold?.amount ?? 0n)} XMR, run ${intent.id} recorded as sent by its amount, each payee paid once to the atomic unit`,
    );
  });

  it("a payout process and monero-wallet-rpc both killed -9 between transfer and store, the transfer kept in monerod's pool past the grace period: the run is held, not failed, nobody is paid twice, and once mined it is recorded by its amount", async () => {
    const payees = await owedMiners(600_000_000_011n, 700_000_000_013n);
    const [, walletPid] = dev.nodeProcessIds();
    expect(await runPayoutChild(childSpec(walletPid), 'after-send')).toBe('SIGKILL');
    await walletBack(walletPid as number);
    const repo = new PayoutsRepository(database.db);
    const [intent] = await repo.runsWithStatus(XMR, ['intent']);
    if (!intent) throw new Error('the killed run left no intent');
    const height = await chain.getBlockCount();
    // The transfer is only in monerod's pool (the dev chain mines only when asked: generateblocks),
    // and the reopened wallet does not know it at all.
    const inPool = await chain.untoldPoolSpends();
    expect(inPool).toHaveLength(1);
    const txid = inPool[0] as string;
    expect((await chain.findWalletTransactions(0)).map((tx) => tx.txid)).not.toContain(txid);
    // intentGraceMs 0: the intent is past its grace at once.
    const service = await restartedAccounting();
    const afterGrace = (await repo.getRun(intent.id))?.status;
    const next = await service.runPayouts(XMR);
    const inPoolAfter = await chain.untoldPoolSpends();
    figures.push(
      `payout process and monero-wallet-rpc killed -9 after transfer, before store, the transfer kept in monerod's pool: run ${intent.id} after the grace period is '${afterGrace}', the next run '${next.map((r) => (r.error ? `${r.status}: ${r.error}` : r.status)).join(', ')}', ${inPoolAfter.length} transfer(s) of the wallet it does not know in the pool`,
    );
    expect(afterGrace).toBe('intent');
    expect(next.map((r) => r.status)).toEqual(['nothing-to-pay']);
    expect(inPoolAfter).toEqual([txid]);
    for (const p of payees) expect(await new BalancesRepository(database.db).get(p.payeeId, XMR)).toBe(0n);
    const runAlerts = alerts.filter((text) => text.includes(`payout run ${intent.id} `));
    expect(runAlerts).toHaveLength(1);
    expect(runAlerts[0]).toContain(
      `(${txid}): the run is held, neither sent nor failed, waiting for them to be mined`,
    );
    expect(await chain.getBlockCount()).toBe(height);
    // Mined: the wallet learns it back without destinations, and the run is recorded by its amount.
    await dev.mine(1);
    expect((await service.runPayouts(XMR))[0]?.status).toBe('nothing-to-pay');
    expect(await repo.getRun(intent.id)).toMatchObject({ status: 'recorded', txid });
    const open = (await new OperatorAlertsRepository(database.db).open()).map((a) => a.key);
    expect(open).not.toContain(`payout-missing:${XMR}:${intent.id}`);
    await dev.mine(10);
    expect((await service.runPayouts(XMR))[0]?.status).toBe('nothing-to-pay');
    const arrived = await received();
    for (const p of payees) expect(arrived.get(p.address)).toBe(p.amount);
    expect(await sentTo(payees.map((p) => p.address))).toEqual([]);
    const untold = (await chain.findWalletTransactions(0)).filter((tx) => tx.txid === txid);
    expect(untold.map((tx) => tx.untold?.amount)).toEqual([payees.reduce((sum, p) => sum + p.amount, 0n)]);
    await service.stop();
    figures.push(
      `  then mined: run ${intent.id} recorded by its amount (${xmr(untold[0]?.untold?.amount ?? 0n)} XMR, ${txid.slice(0, 16)}…), 1 transaction, each payee received its amount once to the atomic unit`,
    );
  });

  it('pays 16 payees in a transfer of 15 destinations and a follow-up run made at once, each to the atomic unit', async () => {
    const payees = await owedMiners(
      ...Array.from({ length: 16 }, (_, i) => 100_000_000_000n + BigInt(i) * 1_000_000_007n),
    );
    const ctx: AccountingContext = {
      config: parseConfig({}),
      db: database.db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[XMR, chain]]),
      metrics: new AccountingMetrics(),
      now: () => new Date(),
      intentGraceMs: 0,
      stopping: () => false,
      alarms: new OperatorAlarms(database.db, logger, undefined),
      skipNotices: new SkipNotices(),
    };
    const first = await runPayoutsForCoin(ctx, XMR);
    expect(first).toMatchObject({ status: 'sent', deferred: 1 });
    expect(first.payouts).toHaveLength(15);
    // The pool wallet's coinbases fund it now: no wait for the first transfer's change.
    const followUp = await runFollowUp(ctx, XMR);
    expect(followUp).toMatchObject({ pending: false, result: { status: 'sent', deferred: 0 } });
    expect(followUp.result?.payouts).toEqual([expect.objectContaining({ amount: 100_000_000_000n })]);
    expect(await runFollowUp(ctx, XMR)).toEqual({ result: undefined, pending: false });
    await dev.mine(10);
    const arrived = await received();
    for (const p of payees) expect(arrived.get(p.address)).toBe(p.amount);
    figures.push(
      `16 payees: one transfer of 15 destinations (fee ${xmr(await feeOf(first.txid ?? ''))} XMR) and a follow-up of 1 (fee ${xmr(
        await feeOf(followUp.result?.txid ?? ''),
      )} XMR), ${xmr(payees.reduce((sum, p) => sum + p.amount, 0n))} XMR received to the atomic unit`,
    );
  }, 300_000); // two transfers built by monero-wallet-rpc (ring signatures, range proofs): slow on a busy 2-core machine

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
