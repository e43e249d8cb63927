import { describe, expect, it } from 'vitest';
import { hexToBytes } from './bytes.js';
import {
  KASPA_DIFF1_TARGET,
  kaspaBigJobHex,
  kaspaJobWords,
  kaspaNotifyParamsJson,
  kaspaShareTarget,
  kaspaTargetDifficulty,
  kaspaNonceValue,
  kaspaWordsDifficulty,
  parseKaspaSubmitNonce,
} from './stratum.js';
import { kaspaBitsToTarget, kaspaTargetWords } from './pow.js';
import { BRIDGE_TEMPLATE } from '../../test/kaspa/test-fixtures.js';

const prePow = hexToBytes(BRIDGE_TEMPLATE.prePow, 'prePow');

describe('Kaspa Stratum shapes', () => {
  it('splits the pre-PoW hash into the four little-endian u64 words GPU miners take', () => {
    expect(kaspaJobWords(prePow)).toEqual(BRIDGE_TEMPLATE.jobWords);
  });

  it('builds the 80-hex big job: pre-PoW hash bytes, then the timestamp as u64 little-endian', () => {
    expect(kaspaBigJobHex(prePow, BRIDGE_TEMPLATE.bigJobTimestamp)).toBe(BRIDGE_TEMPLATE.bigJob);
    expect(kaspaBigJobHex(prePow, 1724081279941n)).toHaveLength(80);
  });

  it('writes notify params with the words as bare 64-bit integers, and the big job as one string', () => {
    const words = kaspaNotifyParamsJson('words', '7', prePow, 1661062150793n);
    expect(words).toBe(`["7",[${BRIDGE_TEMPLATE.jobWords.join(',')}],1661062150793]`);
    const big = kaspaNotifyParamsJson('big-job', '7', prePow, BRIDGE_TEMPLATE.bigJobTimestamp);
    expect(JSON.parse(big)).toEqual(['7', BRIDGE_TEMPLATE.bigJob]);
  });

  it('gives difficulty 1 the target 2^224 - 1 and divides it by the difficulty', () => {
    expect(kaspaShareTarget(1)).toBe((1n << 224n) - 1n);
    expect(kaspaShareTarget(4)).toBe(KASPA_DIFF1_TARGET / 4n);
    expect(kaspaShareTarget(0.5)).toBe(KASPA_DIFF1_TARGET * 2n);
    expect(kaspaShareTarget(2 ** -40)).toBe((1n << 256n) - 1n);
    expect(() => kaspaShareTarget(0)).toThrow(RangeError);
    expect(kaspaTargetDifficulty(kaspaShareTarget(4096))).toBeCloseTo(4096, 9);
  });

  it('shows the network difficulty of a template as the bridge computes it (2^224 / target)', () => {
    // kaspa-stratum-bridge: bits 453325233 is about 12617.38 in Stratum difficulty.
    const difficulty = kaspaTargetDifficulty(kaspaBitsToTarget(453325233));
    expect(difficulty).toBeGreaterThan(12617);
    expect(difficulty).toBeLessThan(12618);
  });
});

describe('mining.submit nonce', () => {
  const value = (nonce: unknown, extranonce: string): bigint | string => {
    const parsed = parseKaspaSubmitNonce(nonce, extranonce);
    return parsed.ok ? kaspaNonceValue(parsed.value) : parsed.error[1];
  };

  it('puts the extranonce in front of a short nonce, zero-padded, with or without 0x', () => {
    expect(value('0x1a2b', 'be')).toBe(0xbe00000000001a2bn);
    expect(value('00000000001a2b', 'be')).toBe(0xbe00000000001a2bn);
    expect(value('1A2B', '')).toBe(0x1a2bn);
  });

  it('gives the nonce as 16 lowercase digits (the duplicate key) and its two 32-bit halves', () => {
    expect(parseKaspaSubmitNonce('0x1A2B', 'BE')).toEqual({
      ok: true,
      value: { hex: 'be00000000001a2b', lo: 0x1a2b, hi: 0xbe000000 },
    });
    expect(parseKaspaSubmitNonce('ffffffffffffffff', '')).toEqual({
      ok: true,
      value: { hex: 'ffffffffffffffff', lo: 0xffffffff, hi: 0xffffffff },
    });
  });

  it('takes a full 16-digit nonce that starts with the session extranonce', () => {
    expect(value('0xbeef00000000abcd', 'beef')).toBe(0xbeef00000000abcdn);
    expect(value('ffffffffffffffff', '')).toBe((1n << 64n) - 1n);
    // 14 digits with a 4-digit extranonce of leading zeros: the whole nonce, zero-padded.
    expect(value('be00000000abcd', '00be')).toBe(0x00be00000000abcdn);
  });

  it('refuses a full nonce of another extranonce, and nonces that are not 1-16 hex digits', () => {
    expect(value('0xdead00000000abcd', 'beef')).toBe('Nonce does not start with the extranonce');
    for (const bad of ['', '0x', 'xyz', '0x11112222333344445', 12345, null]) {
      expect(parseKaspaSubmitNonce(bad, 'be').ok).toBe(false);
    }
  });
});

describe('difficulty reached from PoW words', () => {
  // Within 1e-9: the BigInt reading keeps 64 fraction bits, so a value near 2^256 (difficulty ~2^-32) is exact to 2^-32 of itself.
  it('agrees with the BigInt reading of the same value', () => {
    const samples = [
      1n,
      0xffffn,
      1n << 200n,
      (1n << 224n) - 1n,
      (1n << 256n) - 1n,
      0x1234_5678_9abc_def0_1122_3344n << 100n,
    ];
    for (const pow of samples) {
      const words = kaspaTargetWords(pow);
      expect(kaspaWordsDifficulty(words) / kaspaTargetDifficulty(pow)).toBeCloseTo(1, 9);
    }
    expect(kaspaWordsDifficulty(new Uint32Array(8))).toBe(Number.POSITIVE_INFINITY);
  });
});
