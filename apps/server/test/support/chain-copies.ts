// Test support shared by the families' prepared chains (devchain/snapshot.ts for the Bitcoin
// family, coins/kaspa/funded-snapshot.ts, coins/monero/chain-snapshot.ts): making a snapshot
// directory whole or not at all, and starting a chain on a copy of one that goes when it stops.
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Makes `target` with `make(dir)` in a directory beside it, then renames it into place (one file
 * system, and a rename is atomic: a snapshot is either whole or absent). Resolves with the
 * seconds it took.
 */
export async function makeSnapshot(target: string, make: (dir: string) => Promise<void>): Promise<number> {
  const started = performance.now();
  mkdirSync(dirname(target), { recursive: true });
  const dir = mkdtempSync(join(dirname(target), `${basename(target)}.making-`));
  try {
    await make(dir);
    renameSync(dir, target);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return (performance.now() - started) / 1000;
}

/** `start(copy)` on a copy of a prepared chain; the copy is removed when the chain stops, or at once when its start fails. */
export async function startOnCopy<T extends { stop(): Promise<void> }>(
  copy: string,
  start: (dataDir: string) => Promise<T>,
): Promise<T> {
  try {
    const chain = await start(copy);
    return {
      ...chain,
      async stop() {
        await chain.stop();
        await rm(copy, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
}
