import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './db/data-dir-lock.js';
import { STOP_DEADLINE_MS } from './signals.js';
import {
  portAnswers,
  processGroup,
  startWatched,
  waitUntil,
  type WatchedProcess,
} from '../test/support/processes.js';
import { testLogger } from '../test/support/coins/bitcoin/stratum/harness.js';
import { fundedKaspaDataDir } from '../test/support/coins/kaspa/funded-snapshot.js';
import { moneroChainDataDir } from '../test/support/coins/monero/chain-snapshot.js';
import { copyPreparedChain } from '../test/support/devchain/snapshot.js';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_SCRIPT = join(ROOT, 'scripts', 'start.mjs');

function manjam(args: string[], env: Record<string, string> = {}, configFile?: unknown) {
  const cwd = mkdtempSync(join(tmpdir(), 'manjam-cli-'));
  if (configFile !== undefined) writeFileSync(join(cwd, 'manjam.config.json'), JSON.stringify(configFile));
  const result = spawnSync(process.execPath, [tsx, cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
    timeout: 60_000,
  });
  return { code: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('the manjam command', () => {
  it('stops with exit code 2 and one line naming the key for a wrong type', () => {
    const result = manjam(['start'], { MANJAM_HTTP_PORT: 'eighty' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('config: http.port: Invalid input: expected number, received string');
  });

  it('stops with exit code 2 for an unknown coin in the config file', () => {
    const result = manjam(
      ['start'],
      {},
      { stratum: { ports: [{ port: 5555, coin: 'DOGE', vardiff: { start: 1, min: 1, max: 2 } }] } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'config: stratum.ports.0.coin: Invalid option: expected one of "BTC"|"LTC"|"XMR"|"KAS"',
    );
  });

  it('stops with exit code 2 for a bad URL', () => {
    const result = manjam(['migrate'], { DATABASE_URL: 'mysql://localhost/pool' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^config: databaseUrl: /);
    expect(result.stderr.split('\n')).toHaveLength(1);
  });

  it('answers check-config with exit code 0 for a port written with only its number and coin', () => {
    const result = manjam(
      ['check-config'],
      {},
      { stratum: { ports: [{ port: 34254, coin: 'BTC', protocol: 'v2' }] } },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('refuses an invalid configuration at `npm start` before anything is built or started', () => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [START_SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, MANJAM_CONFIG_JSON: '{"stratum":{"ports":[{"port":3333,"coin":"DOGE"}]}}' },
      timeout: 120_000,
    });
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `[figure] npm start refused an invalid configuration after ${seconds.toFixed(1)} s\n`,
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('config: stratum.ports.0.coin: Invalid option');
    expect(result.stdout).not.toMatch(/building|starting|kaspad/);
  });

  it('stops with exit code 2 for an unknown role', () => {
    const result = manjam(['start', '--role', 'miner']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('manjam: --role must be one of all, stratum, api, accounting');
  });

  it('applies migrations to a fresh embedded database and reports it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manjam-migrate-'));
    const result = manjam(['migrate'], { MANJAM_DATA_DIR: dataDir, MANJAM_LOG_PRETTY: 'false' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('migrations applied');
    const again = manjam(['migrate'], { MANJAM_DATA_DIR: dataDir, MANJAM_LOG_PRETTY: 'false' });
    expect(again.stdout).toContain('database is up to date');
  });

  it('settles only a held payout run that exists, and says how to call it', () => {
    const env = {
      MANJAM_DATA_DIR: mkdtempSync(join(tmpdir(), 'manjam-settle-')),
      MANJAM_LOG_PRETTY: 'false',
    };
    const usage = manjam(['payout-run', '7', 'sent'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'usage: manjam payout-run <run id> sent <txid> | manjam payout-run <run id> failed',
    );
    const unknown = manjam(['payout-run', '7', 'failed'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('manjam: there is no payout run 7');
  });

  it('refuses to open an embedded database another live process has open', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manjam-locked-'));
    const dir = join(dataDir, 'pglite');
    const unlock = lockDataDir(dir);
    try {
      const result = manjam(['payout-run', '7', 'failed'], { MANJAM_DATA_DIR: dataDir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `manjam: the embedded database ${dir} is in use by process ${process.pid}: stop the pool first (PGlite serves one process), or use PostgreSQL (DATABASE_URL) to run commands beside a running pool`,
      );
    } finally {
      unlock();
    }
    // Given back: the command opens it now (and finds no such run).
    expect(manjam(['payout-run', '7', 'failed'], { MANJAM_DATA_DIR: dataDir }).stderr).toBe(
      'manjam: there is no payout run 7',
    );
  });
});

const MANJAM_BIN = fileURLToPath(new URL('../bin/manjam.mjs', import.meta.url));
const STOP_WITHIN_MS = 30_000;

/**
 * A pool on free ports (0) and its own data dir, in its own process group. `allChains`: every dev
 * chain `npm start` starts (monerod and kaspad too); else only the Bitcoin-family ones, enough to
 * show the signal reach them. Each dev chain starts on a copy of a prepared one (the Bitcoin
 * family's test chains, the run's Monero and funded Kaspa snapshots), as after a restart: mining
 * their first blocks is what other tests cover, and cost each start here tens of seconds.
 */
async function startPoolProcess(command: string, args: string[], allChains = false): Promise<WatchedProcess> {
  const free = (coin: string, start: number) => ({
    port: 0,
    coin,
    vardiff: { start, min: start, max: 1e12 },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-signal-'));
  const devchain = (coin: string): string => join(dataDir, 'devchain', coin);
  await Promise.all([
    copyPreparedChain('BTC', devchain('btc'), { logger: testLogger }),
    copyPreparedChain('LTC', devchain('ltc'), { logger: testLogger }),
  ]);
  if (allChains) {
    moneroChainDataDir(devchain('xmr'));
    fundedKaspaDataDir(devchain('kas'));
  }
  return startWatched(command, args, {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      MANJAM_DATA_DIR: dataDir,
      MANJAM_HTTP_HOST: '127.0.0.1',
      MANJAM_HTTP_PORT: '0',
      MANJAM_STRATUM_HOST: '127.0.0.1',
      MANJAM_STRATUM_PORTS: JSON.stringify([free('BTC', 0.001), free('LTC', 0.01)]),
      MANJAM_LOG_PRETTY: 'false',
      ...(allChains ? {} : { MANJAM_XMR_ENABLED: 'false', MANJAM_KAS_ENABLED: 'false' }),
    },
  });
}

/** Time for the banner: the dev chains' first start (kaspad's funding is the longest). */
const BANNER_WITHIN_MS = 400_000;

/** The web and Stratum ports from the start-up banner. */
async function bannerPorts(pool: WatchedProcess): Promise<number[]> {
  const web = await pool.waitFor(/Web app and API:\s+http:\/\/[^:]+:(\d+)/, BANNER_WITHIN_MS);
  const stratum = [...pool.output().matchAll(/Stratum (?:BTC|LTC)\s+stratum\+tcp:\/\/[^:]+:(\d+)/g)];
  const ports = [web[1], ...stratum.map((m) => m[1])].map(Number);
  for (const port of ports) expect(await portAnswers(port)).toBe(true);
  expect(ports).toHaveLength(3);
  return ports;
}

async function expectAllGone(pool: WatchedProcess, ports: number[]): Promise<void> {
  const pgid = pool.child.pid ?? 0;
  await waitUntil(() => processGroup(pgid).length === 0, STOP_WITHIN_MS, 'every process of the pool stopped');
  for (const port of ports) expect(await portAnswers(port)).toBe(false);
}

describe('stopping the pool with a signal', () => {
  it(
    'stops every process of `npm start` and frees its ports when npm gets SIGTERM',
    async () => {
      const pool = await startPoolProcess('npm', ['start']);
      try {
        const ports = await bannerPorts(pool);
        process.kill(pool.child.pid ?? 0, 'SIGTERM');
        await expectAllGone(pool, ports);
        expect(pool.output()).toContain('"clean":true,"msg":"stopped"');
      } finally {
        for (const pid of processGroup(pool.child.pid ?? 0)) process.kill(pid, 'SIGKILL');
      }
    },
    BANNER_WITHIN_MS + 60_000,
  );

  it(
    'stops within the deadline, restarting no node, when SIGTERM reaches every process of the group at once (Ctrl+C, systemd)',
    async () => {
      const pool = await startPoolProcess('npm', ['start'], true);
      const pgid = pool.child.pid ?? 0;
      try {
        const ports = await bannerPorts(pool);
        const signalled = performance.now();
        process.kill(-pgid, 'SIGTERM');
        await waitUntil(
          () => processGroup(pgid).length === 0,
          STOP_DEADLINE_MS + 5_000,
          'every process stopped',
        );
        const seconds = (performance.now() - signalled) / 1000;
        process.stdout.write(
          `[figure] one SIGTERM to the whole group: every process gone ${seconds.toFixed(1)} s later\n`,
        );
        for (const port of ports) expect(await portAnswers(port)).toBe(false);
        const lines = pool.output().split('\n');
        expect(lines.filter((line) => /restart/.test(line) && !/not restarted/.test(line))).toEqual([]);
        expect(lines.filter((line) => /not restarted/.test(line)).length).toBeGreaterThan(0);
      } finally {
        for (const pid of processGroup(pgid)) process.kill(pid, 'SIGKILL');
      }
    },
    BANNER_WITHIN_MS + 60_000,
  );

  it(
    'stops `manjam start` cleanly with exit code 0 when the supervisor sends SIGTERM to its one process',
    async () => {
      const pool = await startPoolProcess(process.execPath, [MANJAM_BIN, 'start']);
      try {
        const ports = await bannerPorts(pool);
        process.kill(pool.child.pid ?? 0, 'SIGTERM');
        expect(await pool.exited).toBe(0);
        await expectAllGone(pool, ports);
      } finally {
        for (const pid of processGroup(pool.child.pid ?? 0)) process.kill(pid, 'SIGKILL');
      }
    },
    BANNER_WITHIN_MS + 60_000,
  );
});
