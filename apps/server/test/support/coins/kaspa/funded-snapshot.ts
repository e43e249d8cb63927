// A funded Kaspa dev chain, made once per machine and copied for each test that needs one.
// Funding the pool wallet from genesis mines ~1,100 simnet blocks (30 s on a quiet machine,
// minutes on a loaded one); every test that starts a funded chain used to pay it. The test run's
// global set-up (test/support/global-setup.ts) funds one chain, stops it and keeps its data dir
// under node_modules/.cache; a test copies it into its own data dir, and the dev chain starts on
// it as it does after a pool restart (same chain, same wallet, already funded). Each copy is its
// own chain from then on: nothing one test mines or pays reaches another.
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { makeSnapshot } from '../../chain-copies.js';
import { KASPAD_VERSION, ensureKaspad } from '../../../../../../scripts/kaspad.mjs';
import { startKaspaDevChain } from '../../../../src/coins/kaspa/devchain.js';

const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));
/** Named by kaspad's version: a new kaspad funds a new snapshot. */
const SNAPSHOT = join(ROOT, 'node_modules', '.cache', `manjam-kas-funded-${KASPAD_VERSION}`);

/** Funds the snapshot when it is missing (kaspad built); resolves with the seconds it took, or 0. */
export async function prepareFundedKaspaSnapshot(): Promise<number> {
  if (existsSync(SNAPSHOT)) return 0;
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) return 0;
  return makeSnapshot(SNAPSHOT, async (dataDir) => {
    const chain = await startKaspaDevChain({
      binaries: installed.binaries,
      logger: pino({ level: 'warn' }),
      dataDir,
    });
    await chain.stop();
  });
}

/**
 * Copies the funded snapshot into `target` (made when absent) and returns it; undefined when
 * there is no snapshot, so the chain is funded from genesis as before.
 */
export function fundedKaspaDataDir(target?: string): string | undefined {
  if (!existsSync(SNAPSHOT)) return undefined;
  const dir = target ?? mkdtempSync(join(tmpdir(), 'manjam-kas-'));
  cpSync(SNAPSHOT, dir, { recursive: true });
  return dir;
}
