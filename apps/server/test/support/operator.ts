/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON bodies are read field by field */
// Test support for the operator console: an account with 2FA on, payout runs held in `intent`
// with their payouts and ledger debits written as accounting writes them (accounting/payouts.ts),
// and a block credited, reversed and back on the main chain as accounting leaves it (blocks.ts).
import { generate } from 'otplib';
import { randomBytes } from 'node:crypto';
import { blockReturnedKey } from '../../src/accounting/recredit-block.js';
import type { Queryable } from '../../src/db/index.js';
import { BlockLifecycleRepository } from '../../src/db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../../src/db/repositories/ledger.js';
import { OperatorAlertsRepository } from '../../src/db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../../src/db/repositories/payouts.js';
import { UsersRepository } from '../../src/db/repositories/users.js';
import { createWalletMiner, insertBlock, regtestAddress } from './accounting/fixtures.js';
import type { TestApi } from './http.js';

export interface TwoFactorAccount {
  token: string;
  id: number;
  email: string;
  password: string;
  /** The TOTP secret (for codes after the API restarted: codeAt). */
  secret: string;
  /** The authenticator's next code (moves the API clock on 30 s: each code is accepted once). */
  code(): Promise<string>;
}

/** Registers an account and turns 2FA on; `token` is the session opened BEFORE 2FA (no code passed). */
export async function twoFactorAccount(api: TestApi, name?: string): Promise<TwoFactorAccount> {
  const user = await api.signUp(name);
  const setup = await api.request('POST', '/api/auth/2fa/setup', { token: user.token });
  const secret = setup.json.secret as string;
  const code = async (): Promise<string> => {
    api.clock.now += 30_000;
    return generate({ secret, epoch: Math.floor(api.clock.now / 1000) });
  };
  const enabled = await api.request('POST', '/api/auth/2fa/enable', {
    token: user.token,
    body: { password: user.password, code: await code() },
  });
  if (enabled.status !== 200) throw new Error(`2fa enable failed: ${enabled.status} ${enabled.text}`);
  return { token: user.token, id: user.id, email: user.email, password: user.password, secret, code };
}

/** Signs in with password and code: a session that passed password + TOTP. */
export async function signInWithCode(api: TestApi, account: TwoFactorAccount): Promise<string> {
  const login = await api.request('POST', '/api/auth/login', {
    body: { email: account.email, password: account.password, totp: await account.code() },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return login.json.token as string;
}

/** An operator signed in with password and code: a 2FA account granted the role, and its session. */
export async function signedInOperator(
  api: TestApi,
  db: Queryable,
): Promise<{ account: TwoFactorAccount; token: string }> {
  const account = await twoFactorAccount(api);
  await new UsersRepository(db).setOperator(account.email, true);
  return { account, token: await signInWithCode(api, account) };
}

export interface HeldPayee {
  payeeId: number;
  address: string;
  amount: bigint;
}

/**
 * Credits each payee its amount, then records a run in `intent` paying them: the run, its payouts
 * and the debits, in one transaction like accounting's intent (the wallet call never answered).
 */
export async function heldRun(
  db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  coin: string,
  payees: readonly HeldPayee[],
  label: string,
): Promise<bigint> {
  return db.transaction(async (tx) => {
    const ledger = new LedgerRepository(tx);
    await ledger.append(
      payees.map((p) => ({
        payeeId: p.payeeId,
        coin,
        amount: p.amount,
        reason: 'pps' as const,
        reference: `test-credit:${label}:${p.payeeId}`,
      })),
    );
    const repo = new PayoutsRepository(tx);
    const runId = await repo.createRun(coin, `manjam-payout:${coin}:${label}`);
    for (const p of payees) {
      const payoutId = await repo.addPayout(runId, p.payeeId, coin, p.address, p.amount);
      await ledger.append([
        {
          payeeId: p.payeeId,
          coin,
          amount: -p.amount,
          reason: 'payout',
          reference: `payout:${payoutId}`,
          payoutId,
        },
      ]);
    }
    return runId;
  });
}

export interface ReturnedBlock {
  blockId: number;
  height: number;
  /** The SOLO finder's payee, and what it was credited (then reversed). */
  payeeId: number;
  credit: bigint;
}

/**
 * A SOLO block of `coin` as accounting leaves one credited at maturity, orphaned by a reorg deeper
 * than maturity and back on the main chain: the finder's credit and the pool's 1 % fee written
 * (`block:<id>:<label>`, blocks.ts confirmBlock), reversed (`reversal:block:...`, orphanBlock), the
 * block orphaned with reversed_at set, and its block-returned alert open. Use a coin whose chain
 * the test's accounting does not track, or its next pass judges the made-up hash.
 */
export async function returnedBlock(
  db: Queryable & { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  coin: string,
  label: string,
): Promise<ReturnedBlock> {
  const finder = await createWalletMiner(db, coin, regtestAddress(`block-${label}`));
  const height = 9_000 + Math.floor(Math.random() * 90_000);
  const reward = 625_000_000n;
  const credit = 618_750_000n;
  const blockId = await insertBlock(db, coin, {
    height,
    hash: randomBytes(32).toString('hex'),
    scheme: 'solo',
    reward,
    subsidy: reward,
    fees: 0n,
    networkDifficulty: 1,
    finder,
    at: new Date(),
  });
  const poolPayee = await new LedgerRepository(db).ensurePoolPayee(coin);
  const credits = [
    { payeeId: finder.payeeId, amount: credit, reason: 'solo' as const, label: 'finder' },
    { payeeId: poolPayee, amount: reward - credit, reason: 'fee' as const, label: 'fee' },
  ];
  await db.transaction(async (tx) => {
    await tx.query(
      "UPDATE blocks SET status = 'confirmed', credited = TRUE, planned_at = now(), confirmed_at = now() WHERE id = $1",
      [blockId],
    );
    const ledger = new LedgerRepository(tx);
    await ledger.append(
      credits.map((c) => ({
        payeeId: c.payeeId,
        coin,
        amount: c.amount,
        reason: c.reason,
        reference: `block:${blockId}:${c.label}`,
        blockId,
      })),
    );
    await ledger.append(
      credits.map((c) => ({
        payeeId: c.payeeId,
        coin,
        amount: -c.amount,
        reason: 'reversal' as const,
        reference: `reversal:block:${blockId}:${c.label}`,
        blockId,
      })),
    );
    await new BlockLifecycleRepository(tx).markOrphaned(blockId, true);
  });
  await new OperatorAlertsRepository(db).raise({
    key: blockReturnedKey(coin, blockId),
    kind: 'block-returned',
    coin,
    message: `${coin} block ${height} (id ${blockId}) is back on the main chain after its credits were reversed; they are not re-credited automatically`,
  });
  return { blockId, height, payeeId: finder.payeeId, credit };
}
