/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON bodies are read field by field */
// Test support for the operator console: an account with 2FA on, and payout runs held in `intent`
// with their payouts and ledger debits written as accounting writes them (accounting/payouts.ts).
import { generate } from 'otplib';
import type { Queryable } from '../../src/db/index.js';
import { LedgerRepository } from '../../src/db/repositories/ledger.js';
import { PayoutsRepository } from '../../src/db/repositories/payouts.js';
import { UsersRepository } from '../../src/db/repositories/users.js';
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
