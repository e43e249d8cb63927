import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addressToOutputScript } from './address.js';
import { coinParams } from './coins.js';
import { buildShare, ShareInputError, type ShareInput } from './share.js';
import { SHARE4_LAYOUT, ShareHasher } from './share-batch.js';
import { jobFromTemplate, type JobTemplate } from './template.js';
import { fixtureTemplate } from '../test/test-fixtures.js';

// The generator is plain JavaScript outside src/; its exports are typed here.
const build = (await import(new URL('../scripts/build-share-wasm.mjs', import.meta.url).href)) as {
  buildShare4Wasm(): Promise<Buffer>;
  share4Source(bytes: Buffer): string;
  SHARE4_LAYOUT: typeof SHARE4_LAYOUT;
};

const PARAMS = coinParams('BTC', 'mainnet');

function job(txCount: number, extranonce2Size = 4, poolTag = '/Manjam/'): JobTemplate {
  const { template } = fixtureTemplate({
    txCount,
    height: 880_000,
    subsidy: 312_500_000n,
    segwit: true,
    bits: '17034219',
  });
  return jobFromTemplate(template, PARAMS, {
    payoutScript: addressToOutputScript('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', PARAMS),
    poolTag,
    extranonce1Size: 4,
    extranonce2Size,
  });
}

function randomInput(j: JobTemplate): ShareInput {
  return {
    extranonce1: randomBytes(j.extranonce1Size),
    extranonce2: randomBytes(j.extranonce2Size),
    ntime: j.curtime + randomInt(0, 600),
    nonce: randomInt(0, 2 ** 32 - 1),
    version: (j.version | (randomInt(0, 0xffff) << 13)) >>> 0,
  };
}

describe('SHA-256d of four shares at a time (WebAssembly SIMD)', () => {
  const hasher = new ShareHasher();

  it("runs the SIMD path on this machine, with the generator's memory layout", () => {
    expect(hasher.simd).toBe(true);
    expect(SHARE4_LAYOUT).toEqual(build.SHARE4_LAYOUT);
  });

  it.each([
    [0, 1],
    [1, 2],
    [2_000, 3],
    [2_000, 4],
    [5, 5],
    [300, 9],
    [64, 13],
  ])(
    'gives the same block hashes as buildShare for a job of %i transactions, %i shares',
    (txCount, count) => {
      const j = job(txCount);
      const inputs = Array.from({ length: count }, () => randomInput(j));
      const hashes = hasher.hashes(j, inputs);
      expect(hashes.map((h) => h.toString('hex'))).toEqual(
        inputs.map((input) => buildShare(j, 'sha256d', input).hash.toString('hex')),
      );
    },
  );

  it('switches jobs between batches (branch and previous hash reloaded)', () => {
    const a = job(10);
    const b = job(700, 8, '/another tag, longer, for a longer coinbase/');
    for (const j of [a, b, a, b]) {
      const inputs = Array.from({ length: 4 }, () => randomInput(j));
      expect(hasher.hashes(j, inputs).map((h) => h.toString('hex'))).toEqual(
        inputs.map((i) => buildShare(j, 'sha256d', i).hash.toString('hex')),
      );
    }
  });

  it('refuses a share whose parts do not fit the job, as buildShare does', () => {
    const j = job(3);
    const bad = { ...randomInput(j), extranonce2: Buffer.alloc(3) };
    expect(() => hasher.hashes(j, [randomInput(j), bad])).toThrow(ShareInputError);
  });

  it('ships the module its generator builds today (the generator is the source)', async () => {
    const committed = readFileSync(new URL('./share-simd/share4-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(build.share4Source(await build.buildShare4Wasm()));
  });
});
