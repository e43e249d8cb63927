// The console beside the CLI on one embedded database (issue 30): `manjam operator grant` opens the
// console to an account, and a held run settled from the console leaves the database exactly as
// `manjam payout-run` leaves its twin (same rows, same ledger, same balances); a returned block
// credited back by `manjam block-recredit` and its twin from the console write the same ledger.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from '../test/support/accounting/fixtures.js';
import { startTestApi } from '../test/support/http.js';
import { heldRun, returnedBlock, signedInOperator, twoFactorAccount } from '../test/support/operator.js';
import { migrate, openDatabase, type Database } from './db/index.js';
import { LedgerRepository } from './db/repositories/ledger.js';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

function manjam(dataDir: string, args: string[]) {
  const result = spawnSync(process.execPath, [tsx, cli, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'manjam-cli-')),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      MANJAM_DATA_DIR: dataDir,
      MANJAM_LOG_PRETTY: 'false',
      MANJAM_LOG_LEVEL: 'error',
    },
    timeout: 60_000,
  });
  return { code: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

/** Two held runs alike: the same amounts to two payees each (one run for the CLI, one for the console). */
async function twinRuns(db: Database, label: string): Promise<[bigint, bigint]> {
  const runs: bigint[] = [];
  for (const side of ['cli', 'api']) {
    const payees = [];
    for (const [n, amount] of [
      [1, 120_000n],
      [2, 380_000n],
    ] as const) {
      const address = regtestAddress(`${label}-${side}-${n}`);
      const miner = await createWalletMiner(db, 'LTC', address);
      payees.push({ payeeId: miner.payeeId, address, amount });
    }
    runs.push(await heldRun(db, 'LTC', payees, `${label}-${side}`));
  }
  return [runs[0] ?? 0n, runs[1] ?? 0n];
}

/** What settling wrote for a run: its row, its payouts, their ledger entries and the payees' balances. */
async function written(db: Database, runId: bigint, txid: string | null) {
  const run = await db.query<{
    status: string;
    failure: string | null;
    error: string | null;
    txid: string | null;
  }>('SELECT status, failure, error, txid FROM payout_runs WHERE id = $1', [runId]);
  const payouts = await db.query<{ status: string; txid: string | null; amount: bigint; balance: bigint }>(
    `SELECT o.status, o.txid, o.amount, b.amount AS balance
       FROM payouts o JOIN balances b ON b.payee_id = o.payee_id AND b.coin = o.coin
      WHERE o.run_id = $1 ORDER BY o.id`,
    [runId],
  );
  const ledger = await db.query<{ reason: string; amount: bigint }>(
    `SELECT e.reason, e.amount FROM ledger_entries e JOIN payouts o ON o.id = e.payout_id
      WHERE o.run_id = $1 ORDER BY o.id, e.id`,
    [runId],
  );
  const sameTxid = (value: string | null) => (value === null ? null : value === txid ? 'its txid' : value);
  return {
    run: run.rows.map((r) => ({ ...r, txid: sameTxid(r.txid) })),
    payouts: payouts.rows.map((p) => ({
      status: p.status,
      txid: sameTxid(p.txid),
      amount: BigInt(p.amount),
      balance: BigInt(p.balance),
    })),
    ledger: ledger.rows.map((e) => ({ reason: e.reason, amount: BigInt(e.amount) })),
  };
}

describe('the operator console beside the manjam command', () => {
  it('opens the console to an account granted from the CLI, and settles a held run to the same rows as the CLI', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manjam-console-'));
    const open = async () => {
      const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
      await migrate(db);
      return db;
    };
    let db = await open();
    let api = await startTestApi(db);
    const operator = await twoFactorAccount(api, 'console_op');
    const failedTwins = await twinRuns(db, 'failed');
    const sentTwins = await twinRuns(db, 'sent');
    const clock = api.clock.now;
    await api.close();
    await db.close();

    // The pool is stopped: the CLI opens the embedded database itself.
    const granted = manjam(dataDir, ['operator', 'grant', operator.email]);
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain(`${operator.email} is now an operator`);
    expect(manjam(dataDir, ['operator', 'grant', 'nobody@example.com'])).toMatchObject({
      code: 2,
      stderr: 'manjam: there is no account with the email nobody@example.com',
    });
    const cliTxid = 'c1'.repeat(32);
    expect(manjam(dataDir, ['payout-run', failedTwins[0].toString(), 'failed']).code).toBe(0);
    expect(manjam(dataDir, ['payout-run', sentTwins[0].toString(), 'sent', cliTxid]).code).toBe(0);

    db = await open();
    api = await startTestApi(db);
    // The authenticator's clock goes on from where the first server left it (each code is used once).
    api.clock.now = clock + 30_000;
    const login = await api.request('POST', '/api/auth/login', {
      body: {
        email: operator.email,
        password: operator.password,
        totp: await generate({ secret: operator.secret, epoch: Math.floor(api.clock.now / 1000) }),
      },
    });
    expect(login.status).toBe(200);
    expect(login.json).toMatchObject({ user: { operator: true } });
    const token = (login.json as { token: string }).token;
    const settle = (id: bigint, body: unknown) =>
      api.request('POST', `/api/operator/payout-runs/${id}/settle`, { token, body });

    const apiTxid = 'a2'.repeat(32);
    expect((await settle(failedTwins[1], { outcome: 'failed' })).status).toBe(200);
    expect((await settle(sentTwins[1], { outcome: 'sent', txid: apiTxid.toUpperCase() })).status).toBe(200);
    expect(await written(db, failedTwins[1], null)).toEqual(await written(db, failedTwins[0], null));
    expect(await written(db, sentTwins[1], apiTxid)).toEqual(await written(db, sentTwins[0], cliTxid));
    expect((await written(db, failedTwins[1], null)).payouts.map((p) => p.balance)).toEqual([
      120_000n,
      380_000n,
    ]);
    expect((await written(db, sentTwins[1], apiTxid)).payouts.map((p) => [p.status, p.txid])).toEqual([
      ['sent', 'its txid'],
      ['sent', 'its txid'],
    ]);
    // What the CLI settled, the console refuses to settle again, and the other way round.
    const again = await settle(failedTwins[0], { outcome: 'failed' });
    expect(again.status).toBe(409);
    expect((again.json as { error: { code: string } }).error.code).toBe('payout-run-not-held');
    await api.close();
    await db.close();
    expect(manjam(dataDir, ['payout-run', sentTwins[1].toString(), 'failed'])).toMatchObject({
      code: 2,
      stderr: `manjam: payout run ${sentTwins[1]} is 'sent' (txid ${apiTxid}): only a held run ('intent') or a sent run whose transaction is missing (payout-missing) is settled by hand`,
    });
    expect(manjam(dataDir, ['operator', 'revoke', operator.email]).code).toBe(0);
  }, 180_000);

  it('credits a returned block back from the CLI and its twin from the console to the same ledger, each once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manjam-recredit-'));
    const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    await migrate(db);
    const cliBlock = await returnedBlock(db, 'LTC', `cli-${Date.now()}`);
    const apiBlock = await returnedBlock(db, 'LTC', `api-${Date.now()}`);
    await db.close();

    // The pool is stopped: the CLI opens the embedded database itself.
    const done = manjam(dataDir, ['block-recredit', String(cliBlock.blockId)]);
    expect(done).toMatchObject({ code: 0 });
    expect(done.stdout).toMatch(
      new RegExp(
        `^LTC block ${cliBlock.height} \\(id ${cliBlock.blockId}\\) credited back: 2 payees, 6\\.25`,
      ),
    );
    expect(manjam(dataDir, ['block-recredit', String(cliBlock.blockId)])).toMatchObject({
      code: 2,
      stderr: `manjam: LTC block ${cliBlock.height} (id ${cliBlock.blockId}) was credited back once already: nothing was changed`,
    });
    expect(manjam(dataDir, ['block-recredit', 'x']).code).toBe(2);

    const reopened = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    const api = await startTestApi(reopened);
    try {
      const { token } = await signedInOperator(api, reopened);
      const recredit = (id: number) => api.request('POST', `/api/operator/blocks/${id}/recredit`, { token });
      expect((await recredit(apiBlock.blockId)).status).toBe(200);
      // What the CLI credited back, the console refuses, and the other way round below.
      const again = await recredit(cliBlock.blockId);
      expect(again.status).toBe(409);
      expect((again.json as { error: { code: string } }).error.code).toBe('block-already-recredited');
      const ledger = async (block: { blockId: number; payeeId: number }) =>
        (await new LedgerRepository(reopened).entriesForBlock(block.blockId)).map((e) => [
          e.payeeId === block.payeeId ? 'finder' : 'pool',
          e.reason,
          e.amount,
          e.reference.replace(`:${block.blockId}:`, ':<id>:'),
        ]);
      expect(await ledger(apiBlock)).toEqual(await ledger(cliBlock));
      expect((await ledger(cliBlock)).filter((e) => String(e[3]).startsWith('recredit:'))).toEqual([
        ['finder', 'solo', 618_750_000n, 'recredit:block:<id>:finder'],
        ['pool', 'fee', 6_250_000n, 'recredit:block:<id>:fee'],
      ]);
    } finally {
      await api.close();
      await reopened.close();
    }
    expect(manjam(dataDir, ['block-recredit', String(apiBlock.blockId)]).code).toBe(2);
  }, 180_000);
});
