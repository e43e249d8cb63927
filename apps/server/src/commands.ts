import { algorithmOf, isCoin, type Algorithm } from '@manjam/protocol';
import { redactConfig, type Config, type Role } from './config/core.js';
import { createLogger } from './logger.js';
import { migrate, openDatabase, type Database } from './db/index.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { parseDbCommand, type CommandIo, type DbCommand } from './control/db-commands.js';
import { askRunningPool, controlSocketPath } from './control/socket.js';
import { databaseOptions, startPool, type PoolSummary, type RunningPool } from './main.js';
import { startDevChains } from './coins/bitcoin/chains.js';
import {
  SIGNAL_EXIT_CODES,
  STOP_DEADLINE_MS,
  handleShutdownSignals,
  type ShutdownSignal,
} from './signals.js';

/**
 * `manjam start`: runs until SIGINT/SIGTERM, then shuts down in order. Exit code 0 after a clean
 * stop, 1 when a part failed to stop; a second signal exits at once with 130/143.
 */
export async function runStart(config: Config, role: Role): Promise<number> {
  const logger = createLogger(config);
  logger.info({ role, config: redactConfig(config) }, 'effective configuration');
  // Listening before the pool starts: a signal during start-up stops it as soon as it is up.
  const signal = waitForSignal(logger);
  const starting = startPool({ config, role, logger });
  const first = await Promise.race([starting, signal]);
  if (typeof first === 'string') return stopDuringStart(starting, first, logger);
  const pool = first;
  printBanner(pool.summary());
  exitAfterDeadline(await signal, logger);
  const clean = await pool.stop();
  logger.info({ clean }, clean ? 'stopped' : 'stopped with errors');
  return clean ? 0 : 1;
}

/**
 * A stop signal while the pool is still starting (a part waiting for a server that is not there):
 * the start gets START_STOP_GRACE_MS to finish so it can be stopped cleanly; past that the process
 * ends without a clean stop (nothing was answered to a miner yet) rather than ignore the signal.
 */
export const START_STOP_GRACE_MS = 3_000;

async function stopDuringStart(
  starting: Promise<RunningPool>,
  signal: ShutdownSignal,
  logger: ReturnType<typeof createLogger>,
): Promise<number> {
  exitAfterDeadline(signal, logger);
  let timer: NodeJS.Timeout | undefined;
  const pool = await Promise.race([
    starting.catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), START_STOP_GRACE_MS))),
  ]);
  clearTimeout(timer);
  if (!pool) {
    // Like a second signal: what is half started (a connection still being attempted) has
    // nothing to flush, and no handle of it may keep the process alive.
    logger.warn(
      { signal, graceMs: START_STOP_GRACE_MS },
      'stopped during start-up, before every part was up',
    );
    process.exit(SIGNAL_EXIT_CODES[signal]);
  }
  const clean = await pool.stop();
  logger.info({ clean }, clean ? 'stopped during start-up' : 'stopped during start-up with errors');
  return clean ? 0 : 1;
}

export async function runMigrate(config: Config): Promise<number> {
  const logger = createLogger(config);
  const db = await openDatabase(databaseOptions(config));
  try {
    const applied = await migrate(db);
    logger.info(
      { applied: applied.map((m) => `${m.version}_${m.name}`) },
      applied.length ? 'migrations applied' : 'database is up to date',
    );
  } finally {
    await db.close();
  }
  return 0;
}

/**
 * `manjam operator grant|revoke <email>` and `manjam payout-run <id> sent <txid> | failed`
 * (control/db-commands.ts). On PostgreSQL the command opens the database beside the pool; on the
 * embedded PGlite database, locked by a running pool, the pool runs it (control/socket.ts); with
 * the pool stopped, the command opens the database itself. Exit code 0 when done, 2 when refused.
 */
export async function runDbCommand(
  config: Config,
  command: DbCommand,
  args: readonly string[],
): Promise<number> {
  const work = parseDbCommand(command, args);
  if ('usage' in work) {
    console.error(work.usage);
    return 2;
  }
  const io: CommandIo = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const logger = createLogger(config);
  let db: Database;
  try {
    db = await openDatabase(databaseOptions(config));
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const answered = await askRunningPool(controlSocketPath(config.dataDir), command, args, io);
    if (answered !== undefined) return answered;
    console.error(`manjam: ${error.message}`);
    return 2;
  }
  try {
    await migrate(db);
    return await work(db, logger, io);
  } finally {
    await db.close();
  }
}

export async function runDevchain(config: Config): Promise<number> {
  const logger = createLogger(config);
  const chains = await startDevChains(config, logger);
  for (const chain of chains) {
    console.log(
      `${chain.coin} regtest: rpc ${chain.rpc.url} user=${chain.rpc.user} password=${chain.rpc.password} pool address ${chain.poolAddress} wallet ${chain.walletRpc.url}`,
    );
  }
  exitAfterDeadline(await waitForSignal(logger), logger);
  await Promise.all(chains.map((chain) => chain.stop()));
  return 0;
}

/** One signal always stops the process: a clean stop that takes longer than STOP_DEADLINE_MS is cut short. */
function exitAfterDeadline(signal: ShutdownSignal, logger: ReturnType<typeof createLogger>): void {
  const started = Date.now();
  setTimeout(() => {
    logger.error(
      { signal, deadlineMs: STOP_DEADLINE_MS, waitedMs: Date.now() - started },
      'the clean stop did not finish in time: exiting now',
    );
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
}

/** Resolves on the first SIGINT/SIGTERM; a second one (a second or more later) exits now. */
function waitForSignal(logger: ReturnType<typeof createLogger>): Promise<ShutdownSignal> {
  return new Promise((resolve) => {
    handleShutdownSignals({
      onFirst: (signal) => {
        logger.info({ signal }, 'shutting down (send the signal again to stop at once)');
        resolve(signal);
      },
      onSecond: (signal) => {
        logger.warn({ signal }, 'second signal: stopping now, without a clean stop');
        process.exit(SIGNAL_EXIT_CODES[signal]);
      },
    });
  });
}

/** The banner's example miners: cpuminer's name of each algorithm it mines. */
const CPUMINER_ALGORITHMS: Partial<Record<Algorithm, string>> = { sha256d: 'sha256d', scrypt: 'scrypt' };

/**
 * The banner's cpuminer command lines: one per Stratum V1 port of an algorithm cpuminer mines
 * (cpuminer speaks no Stratum V2, so a `stratum2+tcp://` port gets none).
 */
export function cpuminerExamples(summary: Pick<PoolSummary, 'stratum' | 'exampleLogin'>): string[] {
  return summary.stratum.flatMap((port) => {
    const algorithm = isCoin(port.coin) ? CPUMINER_ALGORITHMS[algorithmOf(port.coin)] : undefined;
    return algorithm && !port.url.startsWith('stratum2+')
      ? [`  cpuminer -a ${algorithm} -o ${port.url} -u ${summary.exampleLogin}.rig1 -p x`]
      : [];
  });
}

function printBanner(summary: PoolSummary): void {
  const lines = ['', 'Manjam is running.'];
  if (summary.webUrl)
    lines.push(`  Web app and API:  ${summary.webUrl}`, `  Health:           ${summary.webUrl}/api/health`);
  if (summary.metricsUrl) lines.push(`  Metrics:          ${summary.metricsUrl}`);
  for (const port of summary.stratum) lines.push(`  Stratum ${port.coin.padEnd(4)}     ${port.url}`);
  const examples = cpuminerExamples(summary);
  if (examples.length > 0) lines.push('', 'Point a CPU miner at it, e.g.:', ...examples);
  lines.push('', 'Press Ctrl+C to stop.', '');
  console.log(lines.join('\n'));
}
