// An operator account for the browser tests: 2FA on and the role granted as
// `manjam operator grant <email>` grants it (or by that very command, beside the running pool), and
// the rows an operator settles by hand: held and missing payout runs, a returned block.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { runKey } from '../../apps/server/src/accounting/operator-alerts.js';
import { OperatorAlertsRepository } from '../../apps/server/src/db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../../apps/server/src/db/repositories/payouts.js';
import { UsersRepository } from '../../apps/server/src/db/repositories/users.js';
import { createWalletMiner, regtestAddress } from '../../apps/server/test/support/accounting/fixtures.js';
import { heldRun, returnedBlock, type ReturnedBlock } from '../../apps/server/test/support/operator.js';
import { api, registerAndLogin, type Session } from './api.js';
import type { Language } from './browser.js';
import type { TestPool } from './pool.js';

const run = promisify(execFile);
const TSX = createRequire(import.meta.url).resolve('tsx/cli');
const CLI = fileURLToPath(new URL('../../apps/server/src/cli.ts', import.meta.url));

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
  const account = await twoFactorAccount(pool, prefix, language);
  await new UsersRepository(pool.pool.db).setOperator(account.user.email, true);
  return account;
}

/** A signed-up account with 2FA on, not (yet) an operator. */
export async function twoFactorAccount(
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
  return { ...account, nextCode: () => generate({ secret, epoch: now() + 30 }) };
}

/**
 * `manjam operator grant <email>` run as an operator runs it beside the running pool: the CLI in
 * its own process finds the embedded database held by the pool and has the pool run the command
 * over its control socket. Answers the command's exit code and what it printed.
 */
export async function grantWithCli(pool: TestPool, email: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'manjam-e2e-cli-'));
  try {
    const { stdout } = await run(process.execPath, [TSX, CLI, 'operator', 'grant', email], {
      cwd,
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/root',
        MANJAM_DATA_DIR: pool.pool.config.dataDir,
        MANJAM_LOG_PRETTY: 'false',
        MANJAM_LOG_LEVEL: 'error',
      },
    });
    return stdout.trim();
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * A sent LTC run (LTC's chain is not started in the test pool, so accounting leaves it be) whose
 * transaction the wallet no longer knows: payout-missing open, as reconcile leaves it.
 */
export async function newMissingRun(pool: TestPool, label: string): Promise<string> {
  const address = regtestAddress(`e2e-${label}`);
  const miner = await createWalletMiner(pool.pool.db, 'LTC', address);
  const runId = await heldRun(
    pool.pool.db,
    'LTC',
    [{ payeeId: miner.payeeId, address, amount: 420_000n }],
    `e2e-${label}-${Date.now()}`,
  );
  await new PayoutsRepository(pool.pool.db).markSent(runId, randomBytes(32).toString('hex'));
  await new OperatorAlertsRepository(pool.pool.db).raise({
    key: runKey('payout-missing', 'LTC', runId),
    kind: 'payout-missing',
    coin: 'LTC',
    message: `LTC payout run ${runId}: the wallet no longer knows its transaction`,
  });
  return runId.toString();
}

/**
 * An LTC block (its chain is not started in the test pool: accounting leaves it be) credited,
 * orphaned by a deep reorg and back on the main chain (test/support/operator.ts returnedBlock).
 */
export function newReturnedBlock(pool: TestPool, label: string): Promise<ReturnedBlock> {
  return returnedBlock(pool.pool.db, 'LTC', `e2e-${label}`);
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
