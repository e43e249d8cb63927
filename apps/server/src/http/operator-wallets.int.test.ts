/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
// The operator console's pool wallets over real HTTP, on PGlite and PostgreSQL: the balance
// accounting recorded and when, what the pool owes, what the next payout run would pay, and
// whether the wallet covers it; nobody but an operator sees any of it.
import type { OperatorWallet } from '@manjam/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createUserMiner,
  createWalletMiner,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { signedInOperator } from '../../test/support/operator.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { PoolWalletsRepository } from '../db/repositories/pool-wallets.js';

const COIN = 'BTC';

describeEachDatabase('the operator console: pool wallets against the next payout run', (getDb) => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi(getDb());
    ({ token } = await signedInOperator(api, getDb()));
  });
  afterAll(() => api.close());

  const credit = (miner: MinerFixture, amount: bigint, label: string) =>
    new LedgerRepository(getDb()).append([
      { payeeId: miner.payeeId, coin: COIN, amount, reason: 'pps', reference: `wallets-test:${label}` },
    ]);
  const btcRow = async () => {
    const res = await api.request('GET', '/api/operator/wallets', { token });
    expect(res.status).toBe(200);
    const wallets = res.json.wallets as OperatorWallet[];
    return wallets.find((w) => w.coin === COIN);
  };

  it('shows per coin what is owed and what the next run pays, then covered or short by what the recorded balance lacks', async () => {
    // Paid by the next run: a wallet above the 0.01 BTC default, an account above its 0.001 BTC.
    await credit(await createWalletMiner(getDb(), COIN, regtestAddress('wallets-a')), 3_000_000n, 'a');
    const account = await createUserMiner(getDb(), COIN, {
      threshold: '0.001',
      payoutAddress: regtestAddress('wallets-b'),
    });
    await credit(account, 500_000n, 'b');
    // Owed but not in the next run: an account without a payout address, a wallet below threshold.
    await credit(await createUserMiner(getDb(), COIN), 2_000_000n, 'c');
    await credit(await createWalletMiner(getDb(), COIN, regtestAddress('wallets-d')), 10_000n, 'd');

    const unread = await api.request('GET', '/api/operator/wallets', { token });
    expect((unread.json.wallets as { coin: string }[]).map((w) => w.coin)).toEqual([
      'BTC',
      'LTC',
      'XMR',
      'KAS',
    ]);
    expect(await btcRow()).toEqual({
      coin: COIN,
      balance: null,
      readAt: null,
      owed: '5510000',
      nextRunAmount: '3500000',
      nextRunPayees: 2,
      nextRunAt: null,
      covered: null,
      shortBy: '0',
    });

    const readAt = new Date('2026-12-07T03:00:00.000Z');
    await new PoolWalletsRepository(getDb()).record(COIN, 5_000_000n, readAt);
    expect(await btcRow()).toMatchObject({
      balance: '5000000',
      readAt: readAt.toISOString(),
      covered: true,
      shortBy: '0',
    });

    const later = new Date('2026-12-07T03:01:00.000Z');
    await new PoolWalletsRepository(getDb()).record(COIN, 1_000_000n, later);
    expect(await btcRow()).toMatchObject({
      balance: '1000000',
      readAt: later.toISOString(),
      covered: false,
      shortBy: '2500000',
    });
  });

  it('says when the next run is due: the last run plus the payout interval', async () => {
    const runId = await new PayoutsRepository(getDb()).createRun(COIN, `manjam-payout:${COIN}:wallets-test`);
    const created = await getDb().query<{ created_at: Date }>(
      'SELECT created_at FROM payout_runs WHERE id = $1',
      [runId],
    );
    const lastRun = new Date(created.rows[0]?.created_at ?? 0);
    expect((await btcRow())?.nextRunAt).toBe(new Date(lastRun.getTime() + 24 * 3_600_000).toISOString());
  });

  it('answers a visitor and a signed-in miner as if the route did not exist', async () => {
    const miner = await api.signUp();
    for (const bearer of [undefined, miner.token]) {
      const res = await api.request('GET', '/api/operator/wallets', bearer ? { token: bearer } : {});
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('route-not-found');
    }
  });
});
