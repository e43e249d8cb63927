import { randomBytes, scryptSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScryptBatch } from '@manjam/protocol/scrypt-simd';
import { toRpcHex } from './hash.js';

// The generator is plain JavaScript outside src/; its exports are typed here.
const build = (await import(new URL('../scripts/build-scrypt-wasm.mjs', import.meta.url).href)) as {
  buildRomix4Wasm(): Promise<Buffer>;
  romix4Source(bytes: Buffer): string;
};

// Real Litecoin mainnet headers and their scrypt hashes (as in hash.test.ts).
const REAL: [string, string][] = [
  [
    '020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659',
    '00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806',
  ],
  [
    '01000000f615f7ce3b4fc6b8f61e8f89aedb1d0852507650533a9e3b10b9bbcc30639f279fcaa86746e1ef52d3edb3c4ad8259920d509bd073605c9bf1d59983752a6b06b817bb4ea78e011d012d59d4',
    '0000000110c8357966576df46f3b802ca897deb7ad18b12f1c24ecff6386ebd9',
  ],
];

const nodeScrypt = (header: Uint8Array) => scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 });

describe('scrypt proof of work, four headers at a time (WebAssembly SIMD)', () => {
  const batch = new ScryptBatch();

  it('runs the SIMD path on this machine', () => {
    expect(batch.simd).toBe(true);
  });

  it('gives real Litecoin headers their real scrypt hashes, alone and among others', () => {
    const headers = Buffer.concat([
      ...REAL.map(([h]) => Buffer.from(h, 'hex')),
      randomBytes(80),
      ...REAL.map(([h]) => Buffer.from(h, 'hex')),
    ]);
    const out = Buffer.from(batch.hashHeaders(headers));
    const hashes = Array.from({ length: 5 }, (_, i) => toRpcHex(out.subarray(i * 32, i * 32 + 32)));
    expect([hashes[0], hashes[1], hashes[3], hashes[4]]).toEqual([
      REAL[0]![1],
      REAL[1]![1],
      REAL[0]![1],
      REAL[1]![1],
    ]);
  });

  it.each([1, 2, 3, 4, 5, 7, 8, 9, 13])(
    'matches node:crypto scryptSync for a batch of %i random headers',
    (count) => {
      const headers = randomBytes(80 * count);
      const out = Buffer.from(batch.hashHeaders(headers));
      expect(out.length).toBe(32 * count);
      for (let i = 0; i < count; i++) {
        expect(out.subarray(i * 32, i * 32 + 32).toString('hex')).toBe(
          nodeScrypt(headers.subarray(i * 80, i * 80 + 80)).toString('hex'),
        );
      }
    },
  );

  it('hashes only the first `count` headers of a larger buffer', () => {
    const headers = randomBytes(80 * 6);
    const out = Buffer.from(batch.hashHeaders(headers, 4));
    expect(out.length).toBe(128);
    expect(out.subarray(96).toString('hex')).toBe(nodeScrypt(headers.subarray(240, 320)).toString('hex'));
  });

  it('ships the module its generator builds today (the generator is the source)', async () => {
    const committed = readFileSync(new URL('./scrypt-simd/romix4-wasm.mjs', import.meta.url), 'utf8');
    expect(committed).toBe(build.romix4Source(await build.buildRomix4Wasm()));
  });
});
