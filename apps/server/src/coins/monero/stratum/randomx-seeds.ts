// Which RandomX seeds the XMR port has built (the memory rule; the pool's side is in
// packages/randomx: hold, idleReleaseMs, releaseAll).
//
// A logged-in miner holds the port's RandomXPool (the session lets go when its connection closes),
// and its login starts building the template's seed and the next epoch's, so its first share
// rarely waits (one that comes before the cache is ready waits for it). While the pool is wanted
// (some miner is logged in, or the pool never releases: full mode, see start.ts) every new template
// has its seeds built too: the next epoch's as soon as monerod announces it (64 blocks ahead), the
// current one at once should the epoch have switched unannounced. While no miner is logged in, no
// seed is built; once none has been for chains.XMR.randomxIdleReleaseSeconds, the pool (light
// mode) releases every cache and stops its threads.
import type { RandomXPool } from '@manjam/randomx';
import type { Logger } from 'pino';
import type { MoneroTemplate } from './template-source.js';

export type SeedPool = Pick<RandomXPool, 'hold' | 'prepare' | 'wanted' | 'liveSeeds'>;
export type SeedTemplate = Pick<MoneroTemplate, 'seedHash' | 'nextSeedHash'>;

/** A miner logged in on `template`: holds the pool (until the returned function) and builds its seeds. */
export function holdSeeds(randomx: SeedPool, template: SeedTemplate, logger: Logger): () => void {
  const release = randomx.hold();
  prepareSeeds(randomx, template, logger);
  return release;
}

/** A new template: its seeds are built while the pool is wanted. */
export function followTemplateSeeds(randomx: SeedPool, template: SeedTemplate, logger: Logger): void {
  if (randomx.wanted) prepareSeeds(randomx, template, logger);
}

/**
 * The current seed first, then the next one: two builds at once would share the cores, and a share
 * would wait for both. A seed already built is answered at once (no thread is asked); a new one is
 * logged with its build time.
 */
function prepareSeeds(randomx: SeedPool, template: SeedTemplate, logger: Logger): void {
  const next = template.nextSeedHash;
  void prepareSeed(randomx, template.seedHash, 'current', logger).then(() =>
    next && randomx.wanted ? prepareSeed(randomx, next, 'next', logger) : undefined,
  );
}

async function prepareSeed(
  randomx: SeedPool,
  seed: Uint8Array,
  which: string,
  logger: Logger,
): Promise<void> {
  const seedHex = Buffer.from(seed).toString('hex');
  const fresh = !randomx.liveSeeds().includes(seedHex);
  const started = performance.now();
  try {
    await randomx.prepare(seed);
    if (fresh)
      logger.info(
        { seed: seedHex, which, ms: Math.round(performance.now() - started) },
        'RandomX seed built (its cache; in full mode its dataset)',
      );
  } catch (error) {
    logger.warn({ err: error, seed: seedHex, which }, 'preparing a RandomX seed failed');
  }
}
