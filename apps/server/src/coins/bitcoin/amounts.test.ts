import { describe, expect, it } from 'vitest';
import { formatCoins, parseCoins, rpcAmount, unitsFromRpc } from './amounts.js';

describe('coin amounts', () => {
  it('reads the payout thresholds 0.001, 0.01 and 0.1 as exact base units', () => {
    expect(['0.001', '0.01', '0.1'].map(parseCoins)).toEqual([100_000n, 1_000_000n, 10_000_000n]);
    expect(parseCoins('21000000.00000001')).toBe(2_100_000_000_000_001n);
  });

  it('refuses text that is not a plain amount with at most 8 decimals', () => {
    for (const bad of ['', '-1', '1e-3', '0.000000001', 'abc', '1,5'])
      expect(() => parseCoins(bad)).toThrow('not a coin amount');
  });

  it('writes base units as an exact 8-decimal number for the node', () => {
    expect(formatCoins(123_456_789n)).toBe('1.23456789');
    expect(formatCoins(-5n)).toBe('-0.00000005');
    expect(rpcAmount(1n).text).toBe('0.00000001');
    expect(() => rpcAmount(0n)).toThrow('must be positive');
  });

  it('reads a node amount (a double) back to the exact base units', () => {
    expect(unitsFromRpc(0.1 + 0.2)).toBe(30_000_000n);
    expect(unitsFromRpc(-12.37500001)).toBe(-1_237_500_001n);
    expect(() => unitsFromRpc(Number.NaN)).toThrow('non-numeric amount');
    expect(() => unitsFromRpc(90_000_000.5)).toThrow('too large');
  });
});
