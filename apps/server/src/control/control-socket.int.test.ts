// `manjam operator` and `manjam payout-run` while the pool runs on its embedded database: the
// command cannot open the locked PGlite directory, so the pool holding it runs the command over
// its control socket and the operator sees the same lines and exit codes as with the pool stopped.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createConnection } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { heldRun, twoFactorAccount, type TwoFactorAccount } from '../../test/support/operator.js';
import { migrate, openDatabase, type Database } from '../db/index.js';
import { controlSocketPath, startControlSocket, type ControlSocket } from './socket.js';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** The real CLI in its own process (asynchronously: this process serves the socket meanwhile). */
function manjam(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsx, cli, ...args],
      {
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
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

/** One raw request line on the socket: the answer lines as sent. */
function rawRequest(path: string, line: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text.trim().split('\n')));
  });
}

describe('manjam commands on a running pool with the embedded database', () => {
  let dataDir: string;
  let db: Database;
  let api: TestApi;
  let control: ControlSocket | undefined;
  let operator: TwoFactorAccount;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manjam-control-'));
    db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    await migrate(db);
    api = await startTestApi(db);
    operator = await twoFactorAccount(api, 'running_op');
    control = await startControlSocket({ dataDir, db, logger: pino({ level: 'silent' }) });
  });

  afterAll(async () => {
    await control?.close();
    await api?.close();
    await db?.close();
  });

  it('grants the operator role while the pool runs: the next sign-in with a code opens the console', async () => {
    const granted = await manjam(dataDir, ['operator', 'grant', operator.email]);
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toBe(
      `${operator.email} is now an operator (the console asks for a sign-in with password and 2FA code)`,
    );
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: operator.email, password: operator.password, totp: await operator.code() },
    });
    expect(login.json).toMatchObject({ user: { operator: true } });
    expect(await manjam(dataDir, ['operator', 'grant', 'nobody@example.com'])).toMatchObject({
      code: 2,
      stderr: 'manjam: there is no account with the email nobody@example.com',
    });
    expect(await manjam(dataDir, ['operator', 'promote', operator.email])).toMatchObject({
      code: 2,
      stderr: 'usage: manjam operator grant <email> | manjam operator revoke <email>',
    });
  });

  it('settles a held payout run while the pool runs, and refuses it a second time', async () => {
    const address = regtestAddress('control-held');
    const miner = await createWalletMiner(db, 'LTC', address);
    const runId = await heldRun(
      db,
      'LTC',
      [{ payeeId: miner.payeeId, address, amount: 250_000n }],
      'control',
    );
    const settled = await manjam(dataDir, ['payout-run', runId.toString(), 'failed']);
    expect(settled).toMatchObject({ code: 0 });
    expect(settled.stdout).toBe(
      `payout run ${runId} (LTC) is now failed: 1 payouts, 0.0025 LTC given back to the balances`,
    );
    const balance = await db.query<{ amount: bigint }>(
      'SELECT amount FROM balances WHERE payee_id = $1 AND coin = $2',
      [miner.payeeId, 'LTC'],
    );
    expect(BigInt(balance.rows[0]?.amount ?? -1n)).toBe(250_000n);
    const again = await manjam(dataDir, ['payout-run', runId.toString(), 'failed']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^manjam: /);
  });

  it('answers a malformed or unknown request with a clear error and exit code 2', async () => {
    const path = controlSocketPath(dataDir);
    expect(await rawRequest(path, 'not json\n')).toEqual([
      JSON.stringify({ err: 'manjam: malformed control request (one JSON line: {"command", "args"})' }),
      JSON.stringify({ exit: 2 }),
    ]);
    expect(await rawRequest(path, `${JSON.stringify({ command: 'start', args: [] })}\n`)).toEqual([
      JSON.stringify({ err: 'manjam: the running pool does not take the command "start"' }),
      JSON.stringify({ exit: 2 }),
    ]);
  });

  it('says the database is in use when the process holding it has no control socket', async () => {
    await control?.close();
    control = undefined;
    const refused = await manjam(dataDir, ['operator', 'revoke', operator.email]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^manjam: .*in use/);
  });
});
