// Starts the whole pool in this process for browser tests: PGlite in memory-backed temp dir,
// a bcoin regtest chain (SHA-256d), Stratum and HTTP on ephemeral ports, the built web app; and
// the dev chains of the other coins a test asks for, each as its family's
// apps/server/test/support/coins/<family>/test-pool.ts says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { COIN_TABLE, COINS, type Algorithm, type Coin } from '@manjam/protocol';
import { loadConfig } from '../../apps/server/src/config/index.js';
import { startPool, type RunningPool } from '../../apps/server/src/main.js';
import { chainsOffBut } from '../../apps/server/test/support/chains.js';
import {
  familySupportFiles,
  type TestPoolCoin,
  type TestPoolFamily,
} from '../../apps/server/test/support/families.js';
import { copyPoolSnapshot } from './pool-snapshot.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The coin whose port every test pool opens (on bcoin's regtest chain). */
const BASE_COIN = 'BTC';

/** A running test pool. Each other coin started has its port as `<algorithm>Port` (`scryptPort`). */
export interface TestPool extends Partial<Record<`${Algorithm}Port`, number>> {
  pool: RunningPool;
  baseUrl: string;
  /** The base coin's port (SHA-256d). */
  stratumPort: number;
  stop(): Promise<void>;
}

const VARDIFF = { min: 1e-7, max: 1e9, targetSeconds: 15, retargetSeconds: 90, variancePercent: 30 };

/** Every coin the test pool can start besides its base coin, from the families' test-pool.ts. */
async function testPoolCoins(): Promise<Partial<Record<Coin, TestPoolCoin>>> {
  const families = await familySupportFiles<TestPoolFamily>('test-pool.ts');
  return Object.assign({}, ...families.map((family) => family.testPoolCoins)) as Partial<
    Record<Coin, TestPoolCoin>
  >;
}

/** `coins`: also start these coins' dev chains and open their ports (port 0), e.g. `['LTC']`. */
export async function startTestPool(options: { coins?: readonly Coin[] } = {}): Promise<TestPool> {
  const known = await testPoolCoins();
  const started = COINS.filter((coin) => coin !== BASE_COIN && options.coins?.includes(coin));
  const settings = started.map((coin) => {
    const found = known[coin];
    if (!found) throw new Error(`the test pool cannot start ${coin}: its family has no test-pool.ts`);
    return [coin, found] as const;
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-e2e-'));
  // The database and the bcoin chain start on copies of the run's first start (pool-snapshot.ts).
  copyPoolSnapshot(dataDir);
  for (const [, coin] of settings) coin.prepare?.(dataDir);
  const config = loadConfig({
    env: {},
    cwd: dataDir,
    overrides: {
      publicHost: '127.0.0.1',
      dataDir,
      http: { host: '127.0.0.1', port: 0, webDist: join(ROOT, 'apps/web/dist') },
      chains: {
        ...chainsOffBut(BASE_COIN, ...started),
        ...Object.fromEntries(settings.map(([coin, { chain }]) => [coin, { enabled: true, ...chain }])),
      },
      // Share difficulty 1e-6: a share every ~4,300 hashes, so a test miner finds one in well
      // under a second on a busy machine (0.0005 needed ~2 million hashes per share).
      stratum: {
        host: '127.0.0.1',
        ports: [
          { port: 0, coin: BASE_COIN, scheme: 'pps-plus', vardiff: { ...VARDIFF, start: 1e-6 } },
          ...settings.map(([coin, { vardiff }]) => ({
            port: 0,
            coin,
            scheme: 'pps-plus',
            vardiff: { ...VARDIFF, ...vardiff },
          })),
        ],
      },
      log: { level: process.env.MANJAM_TEST_LOG ?? 'warn', pretty: false },
    },
  });
  const logger = pino({ level: config.log.level });
  const pool = await startPool({ config, role: 'all', logger });
  const port = pool.stratum?.ports().find((p) => p.coin === BASE_COIN)?.port;
  if (!pool.http || port === undefined) throw new Error('pool did not start its HTTP and Stratum ports');
  const ports: Partial<Record<`${Algorithm}Port`, number>> = {};
  for (const coin of started) {
    const found = pool.stratum?.ports().find((p) => p.coin === coin)?.port;
    if (found !== undefined) ports[`${COIN_TABLE[coin].algorithm}Port`] = found;
  }
  return {
    pool,
    baseUrl: pool.http.url,
    ...ports,
    stratumPort: port,
    async stop() {
      await pool.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
