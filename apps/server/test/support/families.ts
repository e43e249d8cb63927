// Test support: each coin family's support files, found in its folder (coins/<family>/<file>)
// rather than listed: the test pool's coins (`test-pool.ts`), the run's shared fixtures
// (`global-setup.ts`), the payout crash test's chain (`payout-chain.ts`). A family without the
// file has nothing of that kind.
import { existsSync } from 'node:fs';
import { FAMILIES, type Coin, type Family } from '@manjam/protocol';

const COINS_DIR = new URL('./coins/', import.meta.url);

/** The module `file` of `family`'s support folder, or undefined when the family has none. */
export async function familySupportFile<T>(family: Family, file: string): Promise<T | undefined> {
  const url = new URL(`${family}/${file}`, COINS_DIR);
  if (!existsSync(url)) return undefined;
  return (await import(/* @vite-ignore */ url.href)) as T;
}

/** The modules `file` of every family that has one, in the coin table's family order. */
export async function familySupportFiles<T>(file: string): Promise<T[]> {
  const found: T[] = [];
  for (const family of FAMILIES) {
    const module = await familySupportFile<T>(family, file);
    if (module) found.push(module);
  }
  return found;
}

/** A coin's Stratum port and dev chain in the whole test pool (e2e/support/pool.ts). */
export interface TestPoolCoin {
  /** The port's vardiff, over the test pool's shared one. */
  vardiff: { min?: number; start: number };
  /** Keys of its `chains.<COIN>` section beside `enabled`. */
  chain?: Record<string, unknown>;
  /** Prepares its dev chain in the pool's data dir before the pool starts. */
  prepare?(dataDir: string): void;
}

/** What a family's `test-pool.ts` exports: its coins the test pool can start. */
export interface TestPoolFamily {
  testPoolCoins: Partial<Record<Coin, TestPoolCoin>>;
}

/** What a family's `global-setup.ts` exports: a fixture made once per run, before the first file. */
export interface GlobalSetupFamily {
  globalSetup(): Promise<void>;
}
