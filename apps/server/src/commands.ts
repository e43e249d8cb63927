import { redactConfig, type Config, type Role } from './config/index.js';
import { createLogger } from './logger.js';
import { migrate, openDatabase } from './db/index.js';
import { databaseOptions, startPool } from './main.js';
import { startDevChains } from './chains.js';

/** `manjam start`: runs until SIGINT/SIGTERM, then shuts down in order. */
export async function runStart(config: Config, role: Role): Promise<number> {
  const logger = createLogger(config);
  logger.info({ role, config: redactConfig(config) }, 'effective configuration');
  const pool = await startPool({ config, role, logger });
  printBanner(pool.summary());
  await waitForSignal(logger);
  await pool.stop();
  return 0;
}

export async function runMigrate(config: Config): Promise<number> {
  const logger = createLogger(config);
  const db = await openDatabase(databaseOptions(config));
  try {
    const applied = await migrate(db);
    logger.info({ applied: applied.map((m) => `${m.version}_${m.name}`) }, applied.length ? 'migrations applied' : 'database is up to date');
  } finally {
    await db.close();
  }
  return 0;
}

export async function runDevchain(config: Config): Promise<number> {
  const logger = createLogger(config);
  const chains = await startDevChains(config, logger);
  for (const chain of chains) {
    console.log(`${chain.coin} regtest: rpc ${chain.rpc.url} user=${chain.rpc.user} password=${chain.rpc.password} pool address ${chain.poolAddress}`);
  }
  await waitForSignal(logger);
  await Promise.all(chains.map((chain) => chain.stop()));
  return 0;
}

function waitForSignal(logger: ReturnType<typeof createLogger>): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down');
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export interface PoolSummary {
  webUrl: string | null;
  stratum: { coin: string; url: string; live: boolean }[];
  exampleLogin: string;
}

function printBanner(summary: PoolSummary): void {
  const lines = ['', 'Manjam is running.'];
  if (summary.webUrl) lines.push(`  Web app and API:  ${summary.webUrl}`, `  Health:           ${summary.webUrl}/api/health`);
  for (const port of summary.stratum) lines.push(`  Stratum ${port.coin.padEnd(4)}     ${port.url}`);
  const btc = summary.stratum.find((p) => p.coin === 'BTC');
  const ltc = summary.stratum.find((p) => p.coin === 'LTC');
  if (btc) lines.push('', 'Point a SHA-256d miner at it, e.g.:', `  cpuminer -a sha256d -o ${btc.url} -u ${summary.exampleLogin}.rig1 -p x`);
  if (ltc) lines.push('Or a Scrypt miner:', `  cpuminer -a scrypt -o ${ltc.url} -u ${summary.exampleLogin}.rig1 -p x`);
  lines.push('', 'Press Ctrl+C to stop.', '');
  console.log(lines.join('\n'));
}
