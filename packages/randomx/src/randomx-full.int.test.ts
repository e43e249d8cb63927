import { afterAll, describe, expect, it } from 'vitest';
import { RandomXPool } from './index.js';
import { text, VECTORS } from '../test/vectors.js';

// An integration-tier test: building the dataset takes both cores for about 40 s, too long for
// the fast tier (unit and web) a developer runs between changes.
// Full mode: a 2 GiB dataset per seed built from the cache (about 40 s on two busy cores), the
// same hashes many times faster. One seed only: a second would take another 2 GiB.
describe('RandomXPool (full mode, two threads)', { timeout: 300_000 }, () => {
  const pool = new RandomXPool({ threads: 2, mode: 'full', keepSeeds: 1 });
  afterAll(() => pool.close());

  it('gives the published hashes from its dataset', async () => {
    const sameKey = VECTORS.filter((v) => Buffer.from(v.key).equals(Buffer.from(text('test key 000'))));
    expect(sameKey).toHaveLength(3);
    const hashes = await Promise.all(sameKey.map((v) => pool.hash(v.key, v.input)));
    expect(hashes.map((h) => Buffer.from(h).toString('hex'))).toEqual(sameKey.map((v) => v.hash));
  });
});
