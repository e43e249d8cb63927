// An operator account for the browser tests: 2FA on and the role granted as
// `manjam operator grant <email>` grants it.
import { generate } from 'otplib';
import { UsersRepository } from '../../apps/server/src/db/repositories/users.js';
import { createWalletMiner, regtestAddress } from '../../apps/server/test/support/accounting/fixtures.js';
import { heldRun } from '../../apps/server/test/support/operator.js';
import { api, registerAndLogin, type Session } from './api.js';
import type { Language } from './browser.js';
import type { TestPool } from './pool.js';

export interface OperatorAccount extends Session {
  password: string;
  /** An authenticator code not used yet: each step's code is accepted once, so this is the next step's (within the drift allowed). */
  nextCode: () => Promise<string>;
}

export async function operatorAccount(
  pool: TestPool,
  prefix: string,
  language: Language,
): Promise<OperatorAccount> {
  const account = await registerAndLogin(pool.baseUrl, prefix, language);
  const { secret } = await api<{ secret: string }>(pool.baseUrl, '/api/auth/2fa/setup', {
    method: 'POST',
    token: account.token,
  });
  const now = () => Math.floor(Date.now() / 1000);
  await api(pool.baseUrl, '/api/auth/2fa/enable', {
    token: account.token,
    body: { password: account.password, code: await generate({ secret, epoch: now() }) },
  });
  await new UsersRepository(pool.pool.db).setOperator(account.user.email, true);
  return { ...account, nextCode: () => generate({ secret, epoch: now() + 30 }) };
}

/** The operator signed in again with password and code, as the console requires. */
export async function operatorSession(pool: TestPool, operator: OperatorAccount): Promise<Session> {
  return api<Session>(pool.baseUrl, '/api/auth/login', {
    body: { email: operator.user.email, password: operator.password, totp: await operator.nextCode() },
  });
}

/** A held BTC run (intent) paying two wallets, as accounting leaves one whose sendmany never answered. */
export async function newHeldRun(pool: TestPool, label: string): Promise<string> {
  const payees = [];
  for (const [i, amount] of [150_000n, 250_000n].entries()) {
    const address = regtestAddress(`e2e-${label}-${i}`);
    const miner = await createWalletMiner(pool.pool.db, 'BTC', address);
    payees.push({ payeeId: miner.payeeId, address, amount });
  }
  return (await heldRun(pool.pool.db, 'BTC', payees, `e2e-${label}-${Date.now()}`)).toString();
}

/**
 * The pool's ban judge cutting a connection of `ip` for mostly invalid shares: its login is refused
 * on that address (a `connection` ban), recorded in the pool's own ban list the console reads.
 */
export function banLogin(pool: TestPool, ip: string, login: string): void {
  const bans = pool.pool.stratum?.bans();
  if (!bans) throw new Error('Stratum does not run in the test pool');
  const record = bans.admit(ip, 10);
  if (!record) throw new Error(`${ip} not admitted`);
  bans.offend(record, [login]);
  bans.release(record);
}
