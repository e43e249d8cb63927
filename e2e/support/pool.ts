// Starts the whole pool in this process for browser tests: PGlite in memory-backed temp dir,
// a bcoin regtest chain (SHA-256d), Stratum and HTTP on ephemeral ports, the built web app.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from '../../apps/server/src/config/index.js';
import { startPool, type RunningPool } from '../../apps/server/src/main.js';
import { fundedKaspaDataDir } from '../../apps/server/test/support/coins/kaspa/funded-snapshot.js';
import { SIMNET_SHARE_DIFFICULTY } from '../../apps/server/test/support/coins/kaspa/stratum/standalone.js';
import { KASPA_BIN_DIR } from '../../scripts/kaspad.mjs';
import { copyPoolSnapshot } from './pool-snapshot.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface TestPool {
  pool: RunningPool;
  baseUrl: string;
  stratumPort: number;
  /** The Scrypt (LTC) port, when started with `litecoin` (a regtest litecoind pair). */
  scryptPort?: number;
  /** The RandomX (XMR) port, when started with `monero` (a regtest monerod + wallet-rpc pair). */
  randomxPort?: number;
  /** The kHeavyHash (KAS) port, when started with `kaspa` (the simnet kaspad dev chain, built by scripts/kaspad.mjs). */
  kheavyhashPort?: number;
  stop(): Promise<void>;
}

const VARDIFF = { min: 1e-7, max: 1e9, targetSeconds: 15, retargetSeconds: 90, variancePercent: 30 };

/**
 * `litecoin` / `monero` / `kaspa`: also start that coin's dev chain and open its port (port 0). The
 * XMR port starts at difficulty 1 (monerod's dev chain runs at fixed difficulty 1).
 */
export async function startTestPool(
  options: { litecoin?: boolean; monero?: boolean; kaspa?: boolean } = {},
): Promise<TestPool> {
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-e2e-'));
  // The database and the bcoin chain start on copies of the run's first start (pool-snapshot.ts).
  copyPoolSnapshot(dataDir);
  // Kaspa's dev chain starts on a copy of the run's funded chain (funded-snapshot.ts), when there is one.
  if (options.kaspa) fundedKaspaDataDir(join(dataDir, 'devchain', 'kas'));
  const config = loadConfig({
    env: {},
    cwd: dataDir,
    overrides: {
      publicHost: '127.0.0.1',
      dataDir,
      http: { host: '127.0.0.1', port: 0, webDist: join(ROOT, 'apps/web/dist') },
      chains: {
        LTC: { enabled: options.litecoin === true },
        XMR: { enabled: options.monero === true },
        KAS: { enabled: options.kaspa === true, binDir: KASPA_BIN_DIR },
      },
      // Share difficulty 1e-6: a share every ~4,300 hashes, so a test miner finds one in well
      // under a second on a busy machine (0.0005 needed ~2 million hashes per share).
      stratum: {
        host: '127.0.0.1',
        ports: [
          { port: 0, coin: 'BTC', scheme: 'pps-plus', vardiff: { ...VARDIFF, start: 1e-6 } },
          // Scrypt difficulty 0.01: a share every ~655 hashes (Node hashes ~4,300 Scrypt H/s).
          ...(options.litecoin
            ? [{ port: 0, coin: 'LTC', scheme: 'pps-plus', vardiff: { ...VARDIFF, min: 1e-4, start: 0.01 } }]
            : []),
          ...(options.monero
            ? [{ port: 0, coin: 'XMR', scheme: 'pps-plus', vardiff: { ...VARDIFF, min: 1, start: 1 } }]
            : []),
          // kHeavyHash below simnet's network difficulty: shares, non-block shares and blocks within a few hashes.
          ...(options.kaspa
            ? [
                {
                  port: 0,
                  coin: 'KAS',
                  scheme: 'pps-plus',
                  vardiff: { ...VARDIFF, min: 2 ** -40, start: SIMNET_SHARE_DIFFICULTY },
                },
              ]
            : []),
        ],
      },
      log: { level: process.env.MANJAM_TEST_LOG ?? 'warn', pretty: false },
    },
  });
  const logger = pino({ level: config.log.level });
  const pool = await startPool({ config, role: 'all', logger });
  const port = pool.stratum?.ports().find((p) => p.coin === 'BTC')?.port;
  if (!pool.http || port === undefined) throw new Error('pool did not start its HTTP and Stratum ports');
  const scryptPort = pool.stratum?.ports().find((p) => p.coin === 'LTC')?.port;
  const randomxPort = pool.stratum?.ports().find((p) => p.coin === 'XMR')?.port;
  const kheavyhashPort = pool.stratum?.ports().find((p) => p.coin === 'KAS')?.port;
  return {
    pool,
    baseUrl: pool.http.url,
    stratumPort: port,
    ...(scryptPort === undefined ? {} : { scryptPort }),
    ...(randomxPort === undefined ? {} : { randomxPort }),
    ...(kheavyhashPort === undefined ? {} : { kheavyhashPort }),
    async stop() {
      await pool.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
