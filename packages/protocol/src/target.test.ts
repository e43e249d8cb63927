import { describe, expect, it } from 'vitest';
import {
  MIN_SHARE_DIFFICULTY,
  bitsToTarget,
  diff1Target,
  difficultyToTarget,
  expectedHashesPerShare,
  hashDifficulty,
  hashToBigInt,
  networkDifficulty,
  targetToBits,
  targetToDifficulty,
} from './target.js';

describe('targets and difficulty', () => {
  it('uses 0x00000000ffff... as sha256d difficulty 1 and 0x0000ffff... as scrypt difficulty 1', () => {
    expect(diff1Target('sha256d').toString(16).padStart(64, '0')).toBe(`00000000ffff${'0'.repeat(52)}`);
    expect(diff1Target('scrypt').toString(16).padStart(64, '0')).toBe(`0000ffff${'0'.repeat(56)}`);
  });

  it('decodes the genesis nBits 1d00ffff to the difficulty-1 target', () => {
    expect(bitsToTarget('1d00ffff')).toBe(diff1Target('sha256d'));
    expect(bitsToTarget(0x1d00ffff)).toBe(diff1Target('sha256d'));
  });

  it('decodes real nBits: block 125552 (1a44b9f2) and regtest (207fffff)', () => {
    expect(bitsToTarget('1a44b9f2')).toBe(0x44b9f2n << (8n * 23n));
    expect(bitsToTarget('207fffff').toString(16)).toBe(`7fffff${'0'.repeat(58)}`);
    // Block 125552's difficulty, as block explorers show it: 244,112.49
    expect(networkDifficulty('1a44b9f2', 'sha256d')).toBeCloseTo(244112.48777434, 5);
  });

  it('shows Litecoin network difficulty 65536 times larger in scrypt stratum units', () => {
    const bits = '1b0404cb';
    expect(networkDifficulty(bits, 'scrypt') / networkDifficulty(bits, 'sha256d')).toBeCloseTo(65536, 6);
  });

  it('re-encodes targets to the same compact nBits', () => {
    for (const bits of ['1d00ffff', '1a44b9f2', '207fffff', '1e0ffff0', '1b04864c', '170e9f6f']) {
      expect(targetToBits(bitsToTarget(bits))).toBe(bits);
    }
  });

  it('rejects malformed and negative nBits', () => {
    expect(() => bitsToTarget('xyz')).toThrow(/8 hex/);
    expect(() => bitsToTarget('1d80ffff')).toThrow(/negative/);
    expect(() => bitsToTarget(-1)).toThrow(RangeError);
  });

  it('round-trips difficulty -> target -> difficulty for both algorithms', () => {
    for (const algorithm of ['sha256d', 'scrypt'] as const) {
      for (const d of [MIN_SHARE_DIFFICULTY[algorithm], 0.001, 0.5, 1, 16, 1024, 65536, 1e6, 3.7e9, 1.2e14]) {
        const back = targetToDifficulty(difficultyToTarget(d, algorithm), algorithm);
        expect(Math.abs(back - d) / d).toBeLessThan(1e-12);
      }
    }
  });

  it('gives exact targets for power-of-two difficulties', () => {
    expect(difficultyToTarget(1, 'sha256d')).toBe(diff1Target('sha256d'));
    expect(difficultyToTarget(1024, 'sha256d')).toBe(diff1Target('sha256d') / 1024n);
    expect(difficultyToTarget(0.5, 'scrypt')).toBe(diff1Target('scrypt') * 2n);
  });

  it('keeps the lowest share difficulty target inside 256 bits', () => {
    expect(difficultyToTarget(MIN_SHARE_DIFFICULTY.sha256d, 'sha256d')).toBe(0xffffn << 240n);
    expect(difficultyToTarget(MIN_SHARE_DIFFICULTY.scrypt, 'scrypt')).toBe(0xffffn << 240n);
    expect(difficultyToTarget(1e-30, 'sha256d')).toBe((1n << 256n) - 1n);
    expect(difficultyToTarget(1e300, 'sha256d')).toBe(1n);
  });

  it('refuses a zero, negative or non-finite difficulty', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => difficultyToTarget(bad, 'sha256d')).toThrow(/positive finite/);
    }
    expect(() => targetToDifficulty(0n, 'sha256d')).toThrow(/positive/);
  });

  it('reads a hash in internal byte order as a little-endian integer', () => {
    const hash = Buffer.alloc(32);
    hash[0] = 0x01;
    hash[31] = 0x80;
    expect(hashToBigInt(hash)).toBe((0x80n << 248n) | 1n);
    expect(() => hashToBigInt(Buffer.alloc(31))).toThrow(/32 bytes/);
  });

  it('expects d * 2^32 hashes per sha256d share and d * 2^16 per scrypt share', () => {
    expect(expectedHashesPerShare(1, 'sha256d')).toBe(4294967296);
    expect(expectedHashesPerShare(1, 'scrypt')).toBe(65536);
    expect(expectedHashesPerShare(2048, 'scrypt')).toBe(2048 * 65536);
  });
});

describe('hashDifficulty', () => {
  it('tells the difficulty a real block hash met', () => {
    // Block 125552's hash 00000000000000001e8d6829... met difficulty ~3.6e10 (its target: ~244,112).
    const value = BigInt('0x00000000000000001e8d6829a8a21adc5d38d0a473b144b6765798e61f98bd1d');
    expect(hashDifficulty(value, 'sha256d') / ((0xffff * 2 ** 208) / Number(value))).toBeCloseTo(1, 12);
    expect(hashDifficulty(value, 'sha256d')).toBeGreaterThan(networkDifficulty('1a44b9f2', 'sha256d'));
    expect(hashDifficulty(diff1Target('scrypt'), 'scrypt')).toBe(1);
    expect(hashDifficulty(0n, 'sha256d')).toBe(Number.POSITIVE_INFINITY);
  });
});
