// What every browser test's pool does first, made once per run: the embedded database (PGlite)
// with every migration applied and the bcoin regtest chain mined to BTC_INITIAL_BLOCKS with its
// wallet. Each of them cost a pool start tens of seconds on a busy 2-core machine (PGlite's
// migrations and bcoin's 432 blocks). The e2e project's global set-up (global-setup.ts) makes
// them in a data dir of their own and keeps it under node_modules/.cache; each test pool copies
// them into its own data dir, and the pool starts on them as it does after a restart. Each copy is
// its own database and chain from then on: nothing one file writes or mines reaches another.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { listMigrations, migrate, openDatabase } from '../../apps/server/src/db/index.js';
import { BTC_INITIAL_BLOCKS, startBtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, 'node_modules', '.cache');
const PREFIX = 'manjam-e2e-pool-';
/** Where the pool keeps them under its data dir (config: dataDir/pglite, dataDir/devchain/btc). */
const PARTS = ['pglite', join('devchain', 'btc')];

/** Named by the migrations it applies and the chain's height. */
function snapshotDir(): string {
  const hash = createHash('sha256');
  for (const m of listMigrations()) hash.update(`${m.version}:${m.name}:${m.sql}\n`);
  hash.update(`btc:${BTC_INITIAL_BLOCKS}`);
  return join(CACHE, `${PREFIX}${hash.digest('hex').slice(0, 16)}`);
}

/** Makes the snapshot, a fresh one each run (older ones removed); resolves with the seconds it took. */
export async function preparePoolSnapshot(): Promise<number> {
  const started = performance.now();
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE).filter((name) => name.startsWith(PREFIX)))
    rmSync(join(CACHE, old), { recursive: true, force: true });
  const target = snapshotDir();
  // Made beside its final place (one file system, so the rename below cannot fail across them).
  const dataDir = mkdtempSync(join(CACHE, `${PREFIX}making-`));
  try {
    const logger = pino({ level: 'warn' });
    const [chain, database] = await Promise.allSettled([
      startBtcDevChain({ logger, dataDir: join(dataDir, 'devchain', 'btc') }),
      (async () => {
        const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
      })(),
    ]);
    if (chain.status === 'fulfilled') await chain.value.stop();
    if (chain.status === 'rejected') throw chain.reason;
    if (database.status === 'rejected') throw database.reason;
    // A rename is atomic: a snapshot is either whole or absent.
    renameSync(dataDir, target);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return (performance.now() - started) / 1000;
}

/**
 * Copies the snapshot's database and chain into a pool's data dir; false when this run has none
 * (a file run without the global set-up, or a snapshot that failed), and the pool makes its own.
 */
export function copyPoolSnapshot(dataDir: string): boolean {
  const snapshot = snapshotDir();
  if (!existsSync(snapshot)) return false;
  for (const part of PARTS) cpSync(join(snapshot, part), join(dataDir, part), { recursive: true });
  return true;
}
