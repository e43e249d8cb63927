import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes.js';
import { kaspaPrePowHash, parseRpcBlockHeader } from './header.js';
import { kaspaCShake, kaspaHeavyHash, kaspaPowHashPlain } from './heavyhash.js';
import { generateKaspaMatrix, matrixRank, Xoshiro256PlusPlus } from './matrix.js';
import { HEAVYHASH_TEST_MATRIX, MATRIX_OF_42S, matrixFromRows } from '../../test/kaspa/matrix-vectors.js';
import {
  kaspaBitsToTarget,
  kaspaMeetsTarget,
  kaspaPowHash,
  kaspaPowState,
  kaspaPowValue,
  kaspaPowWords,
  kaspaTargetToBits,
  kaspaTargetWords,
} from './pow.js';
import { BRIDGE_TEMPLATE, MAINNET_BLOCK } from '../../test/kaspa/test-fixtures.js';

describe('xoshiro256++ and the kHeavyHash matrix', () => {
  it('draws the reference xoshiro256++ sequence from the state 1, 2, 3, 4', () => {
    const rng = new Xoshiro256PlusPlus(1n, 2n, 3n, 4n);
    const drawn = Array.from({ length: 10 }, () => rng.next());
    expect(drawn).toEqual([
      41943041n,
      58720359n,
      3588806011781223n,
      3591011842654386n,
      9228616714210784205n,
      9973669472204895162n,
      14011001112246962877n,
      12406186145184390807n,
      15849039046786891736n,
      10450023813501588000n,
    ]);
  });

  it('generates exactly kaspad’s matrix for a pre-PoW hash of 32 bytes of 42', () => {
    const matrix = generateKaspaMatrix(new Uint8Array(32).fill(42));
    expect(matrix).toEqual(matrixFromRows(MATRIX_OF_42S));
  });

  it('counts the rank as kaspad does: 0 for zeros, 64 when generated, less with dependent rows', () => {
    expect(matrixRank(new Uint8Array(4096))).toBe(0);
    const matrix = generateKaspaMatrix(hexToBytes(BRIDGE_TEMPLATE.prePow, 'hash'));
    expect(matrixRank(matrix)).toBe(64);
    for (let j = 0; j < 64; j++) matrix[j] = (matrix[64 + j] ?? 0) * 2;
    expect(matrixRank(matrix)).toBe(63);
    for (let j = 0; j < 64; j++) matrix[33 * 64 + j] = (matrix[32 * 64 + j] ?? 0) * 3;
    expect(matrixRank(matrix)).toBe(62);
  });
});

describe('kHeavyHash', () => {
  it('reproduces kaspad’s HeavyHash vector (cSHAKE256 "ProofOfWorkHash" of c1ecfdfc, fixed matrix)', () => {
    const powHash = kaspaCShake('ProofOfWorkHash', Uint8Array.from([0xc1, 0xec, 0xfd, 0xfc]));
    const heavy = kaspaHeavyHash(matrixFromRows(HEAVYHASH_TEST_MATRIX), powHash);
    expect(bytesToHex(heavy)).toBe('87689f379943eaf9b7475ca95325687772bfcc68fc7899caeb4409ec4590c325');
  });

  it('gives the same hash on the fast path (precomputed cSHAKE states, row pairs) as the plain code on noble’s cshake256, nonce after nonce', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    const state = kaspaPowState(kaspaPrePowHash(header), header.timestamp);
    const nonces = [0n, 1n, 0xffffffffn, 0x100000000n, (1n << 64n) - 1n, header.nonce];
    for (let i = 0n; i < 40n; i++)
      nonces.push((header.nonce * 6364136223846793005n + i) & ((1n << 64n) - 1n));
    for (const nonce of nonces) {
      const plain = kaspaPowHashPlain(state.matrix, state.prePow, header.timestamp, nonce);
      expect(bytesToHex(kaspaPowHash(state, nonce))).toBe(bytesToHex(plain));
    }
  });

  it('finds the proof of work of a real mainnet block under the target of its bits', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    const state = kaspaPowState(kaspaPrePowHash(header), header.timestamp);
    const target = kaspaBitsToTarget(header.bits);
    const value = kaspaPowValue(state, header.nonce);
    expect(value <= target).toBe(true);
    // A random value would sit near 2^255; this one is about 2^196, under a target of about 2^196.5.
    expect(value.toString(2).length).toBeLessThanOrEqual(target.toString(2).length);
    expect(kaspaMeetsTarget(kaspaPowWords(state, header.nonce), kaspaTargetWords(target))).toBe(true);
    expect(kaspaMeetsTarget(kaspaPowWords(state, header.nonce + 1n), kaspaTargetWords(target))).toBe(false);
  });

  it('compares PoW words to a target exactly at the boundary', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    const state = kaspaPowState(kaspaPrePowHash(header), header.timestamp);
    const value = kaspaPowValue(state, header.nonce);
    const words = kaspaPowWords(state, header.nonce);
    expect(kaspaMeetsTarget(words, kaspaTargetWords(value))).toBe(true);
    expect(kaspaMeetsTarget(words, kaspaTargetWords(value - 1n))).toBe(false);
  });

  it('reads compact bits as kaspad’s CompactToBig and writes them back', () => {
    expect(kaspaBitsToTarget(0x207fffff)).toBe(0x7fffffn << 232n);
    expect(kaspaBitsToTarget(420908524)).toBe(0x168decn << 176n);
    expect(kaspaTargetToBits(kaspaBitsToTarget(420908524))).toBe(420908524);
    expect(kaspaTargetToBits(kaspaBitsToTarget(0x1e7fffff))).toBe(0x1e7fffff);
  });

  it('refuses a nonce or timestamp outside 64 bits and a pre-PoW hash of the wrong size', () => {
    const state = kaspaPowState(new Uint8Array(32).fill(1), 1n);
    expect(() => kaspaPowValue(state, 1n << 64n)).toThrow(RangeError);
    expect(() => kaspaPowValue(state, -1n)).toThrow(RangeError);
    expect(() => kaspaPowState(new Uint8Array(31), 1n)).toThrow(RangeError);
    expect(() => kaspaPowState(new Uint8Array(32).fill(1), 1n << 64n)).toThrow(RangeError);
    expect(() => kaspaPowState(new Uint8Array(32), 1n)).toThrow(/all zeros/);
  });
});
