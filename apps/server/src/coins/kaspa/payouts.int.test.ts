// KAS payout crash drills on the real dev chain (kaspad simnet + the pool wallet's kaspawallet
// daemon), through the real run path: runPayouts('KAS') in a child process
// (test/support/accounting/payout-child.ts) killed -9 once the run's intent is stored and before
// Send reaches the daemon, or the moment Send answered (before the run is marked sent). A
// restarted accounting process reconciles the run from the DAG (KaspaAccountingChain keeps what
// it sent in memory only, so the restart finds the transaction by its output to the payee) and
// the payee, an address of an OUTSIDE kaspawallet, is paid exactly once. Figures are printed.
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKaspad } from '../../../../../scripts/kaspad.mjs';
import { parseConfig, type CoinId } from '../../config/index.js';
import { LedgerRepository } from '../../db/repositories/ledger.js';
import { PayoutsRepository } from '../../db/repositories/payouts.js';
import { startAccounting, type AccountingService } from '../../accounting/index.js';
import { PoolEvents } from '../../events.js';
import { openTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { createUserMiner } from '../../../test/support/accounting/fixtures.js';
import { runPayoutChild } from '../../../test/support/accounting/run-payout-child.js';
import type { RunningWallet } from './dev-processes.js';
import { KAS_DEV_FEE_RATE, startKaspaDevChain, type KaspaDevChain } from './devchain.js';
import { KaspaAccountingChain } from './wallet.js';
import { fundedKaspaDataDir } from '../../../test/support/coins/kaspa/funded-snapshot.js';

const logger = pino({ level: 'silent' });
const KAS: CoinId = 'KAS';
const figures: string[] = [];
const kas = (sompi: bigint): string =>
  `${sompi / 10n ** 8n}.${(sompi % 10n ** 8n).toString().padStart(8, '0')}`;

describe('KAS payouts killed -9 at the worst moments (real kaspad + kaspawallet daemons)', () => {
  let dev: KaspaDevChain;
  let dataDir: string | undefined;
  let outside: RunningWallet;
  let chain: KaspaAccountingChain;
  let database: TestDatabase;

  beforeAll(async () => {
    const installed = await ensureKaspad({ quiet: true });
    // No Go, no kaspad: the test fails with the installer's words, it is never skipped.
    if (!installed.ok) throw new Error(installed.reason);
    // A copy of the run's funded chain (test/support/coins/kaspa/funded-snapshot.ts), else funded here.
    dataDir = fundedKaspaDataDir();
    dev = await startKaspaDevChain({ binaries: installed.binaries, logger, ...(dataDir ? { dataDir } : {}) });
    outside = await dev.startWallet('outside');
    chain = new KaspaAccountingChain(dev.node, dev.wallet, {
      password: dev.walletPassword,
      feePolicy: { exactFeeRate: KAS_DEV_FEE_RATE },
    });
    database = await openTestDatabase('postgres');
  }, 400_000);

  afterAll(async () => {
    await database?.drop();
    await dev?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.stdout.write(`[payout drill KAS]\n  ${figures.join('\n  ')}\n`);
  });

  /** A KAS miner paid to a fresh address of the outside wallet, owed `amount` sompi. */
  const owedMiner = async (amount: bigint): Promise<{ address: string; amount: bigint }> => {
    const address = await outside.client.newAddress();
    const miner = await createUserMiner(database.db, KAS, { payoutAddress: address });
    await new LedgerRepository(database.db).append([
      { payeeId: miner.payeeId, coin: KAS, amount, reason: 'adjustment', reference: `test:${miner.payeeId}` },
    ]);
    return { address, amount };
  };
  /** An accounting process on the pool wallet (the restart after the crash), judging intents at once. */
  const restartedAccounting = (): Promise<AccountingService> =>
    startAccounting({
      config: parseConfig({}),
      db: database.db,
      logger,
      events: new PoolEvents(),
      chains: new Map([[KAS, chain]]),
      loop: false,
      intentGraceMs: 0,
    });
  const childSpec = () => ({
    coin: KAS,
    databaseUrl: database.url,
    schema: database.schema,
    kaspa: {
      rpcAddress: dev.rpcAddress,
      walletAddress: dev.walletAddress,
      password: dev.walletPassword,
      exactFeeRate: KAS_DEV_FEE_RATE,
    },
  });
  /** What the outside wallet's address holds (spendable and not), once the daemon has synced it. */
  const arrivedAt = async (address: string, expected: bigint): Promise<bigint> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = (await outside.client.getBalance()).byAddress.find((b) => b.address === address);
      const held = (row?.available ?? 0n) + (row?.pending ?? 0n);
      if (held === expected || Date.now() > deadline) return held;
      await dev.mine(1);
    }
  };
  /** Transactions in the DAG paying `address` (every one the pool wallet ever sent there). */
  const sentTo = async (address: string): Promise<string[]> =>
    (await chain.findWalletTransactions(0))
      .filter((tx) => tx.outputs.some((o) => o.address === address))
      .map((tx) => tx.txid);

  it('a payout process killed -9 after its intent and before Send: the run is failed on restart, nothing left the wallet, and the next run pays the miner once', async () => {
    const payee = await owedMiner(123_456_789n);
    expect(await runPayoutChild(childSpec(), 'before-send')).toBe('SIGKILL');
    const repo = new PayoutsRepository(database.db);
    const [intent] = await repo.runsWithStatus(KAS, ['intent']);
    if (!intent) throw new Error('the killed run left no intent');
    expect(await sentTo(payee.address)).toEqual([]);

    const started = performance.now();
    const service = await restartedAccounting();
    const results = await service.runPayouts(KAS);
    expect((await repo.getRun(intent.id))?.status).toBe('failed');
    expect(results.map((r) => r.status)).toContain('sent');
    await dev.mine(2);
    expect(await arrivedAt(payee.address, payee.amount)).toBe(payee.amount);
    expect(await sentTo(payee.address)).toHaveLength(1);
    await service.stop();
    figures.push(
      `killed -9 before Send: run ${intent.id} failed on restart, the next run paid ${kas(payee.amount)} KAS in ${((performance.now() - started) / 1000).toFixed(1)} s; the outside address holds ${kas(payee.amount)} KAS from 1 transaction`,
    );
  }, 300_000);

  it('a payout process killed -9 the moment Send answered: the restart finds the transaction by its output, marks the run sent, and never pays again', async () => {
    const payee = await owedMiner(987_654_321n);
    expect(await runPayoutChild(childSpec(), 'after-send')).toBe('SIGKILL');
    const repo = new PayoutsRepository(database.db);
    const [intent] = await repo.runsWithStatus(KAS, ['intent']);
    if (!intent) throw new Error('the killed run left no intent');
    expect((await repo.payoutsOfRun(intent.id)).map((p) => p.amount)).toEqual([payee.amount]);

    const started = performance.now();
    const service = await restartedAccounting();
    const run = await repo.getRun(intent.id);
    expect(run?.status).toBe('sent');
    expect(await sentTo(payee.address)).toEqual([run?.txid]);
    // Nothing is owed any more: a run made now pays nobody.
    expect((await service.runPayouts(KAS)).map((r) => r.status)).not.toContain('sent');
    await dev.mine(2);
    expect(await arrivedAt(payee.address, payee.amount)).toBe(payee.amount);
    expect(await sentTo(payee.address)).toEqual([run?.txid]);
    await service.stop();
    figures.push(
      `killed -9 after Send: run ${intent.id} found by its output on restart (${run?.txid?.slice(0, 16)}…) in ${((performance.now() - started) / 1000).toFixed(1)} s; the outside address holds ${kas(payee.amount)} KAS of ${kas(payee.amount)} owed, from 1 transaction`,
    );
  }, 300_000);
});
