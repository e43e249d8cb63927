import { describe, expect, it } from 'vitest';
import {
  AmountError,
  baseUnitsToDecimal,
  COIN_DECIMALS,
  decimalsOf,
  decimalToBaseUnits,
  formatCoinAmount,
  nodeAmountToBaseUnits,
  parseCoinAmount,
} from './money.js';

describe('coin amounts', () => {
  it('writes base units as the exact 8-decimal text a node expects', () => {
    expect(baseUnitsToDecimal(123456789n, 8)).toBe('1.23456789');
    expect(baseUnitsToDecimal(1n, 8)).toBe('0.00000001');
    expect(baseUnitsToDecimal(2_099_999_999_999_999n, 8)).toBe('20999999.99999999');
    expect(baseUnitsToDecimal(-150_000_000n, 8)).toBe('-1.50000000');
  });

  it('reads decimal text back to the same base units', () => {
    expect(decimalToBaseUnits('1.23456789', 8)).toBe(123456789n);
    expect(decimalToBaseUnits('0.1', 8)).toBe(10_000_000n);
    expect(decimalToBaseUnits('50', 8)).toBe(5_000_000_000n);
    expect(decimalToBaseUnits('1.500000000', 8)).toBe(150_000_000n);
  });

  it('refuses amounts finer than one base unit or that are not numbers', () => {
    expect(() => decimalToBaseUnits('0.000000001', 8)).toThrow(AmountError);
    expect(() => decimalToBaseUnits('1e-8', 8)).toThrow(/not a decimal amount/);
    expect(() => decimalToBaseUnits('', 8)).toThrow(AmountError);
  });

  it('recovers exact base units from the doubles JSON.parse gives for node amounts', () => {
    expect(nodeAmountToBaseUnits(0.1 + 0.2, 8)).toBe(30_000_000n);
    expect(nodeAmountToBaseUnits(JSON.parse('20999999.99999999') as number, 8)).toBe(2_099_999_999_999_999n);
    expect(nodeAmountToBaseUnits(JSON.parse('0.00000001') as number, 8)).toBe(1n);
    expect(nodeAmountToBaseUnits(-0.0001, 8)).toBe(-10_000n);
    expect(() => nodeAmountToBaseUnits(90_000_000.5, 8)).toThrow(/too large/);
    expect(() => nodeAmountToBaseUnits(null, 8)).toThrow(/non-numeric/);
  });

  it('drops trailing zeros down to the digits asked for', () => {
    expect(baseUnitsToDecimal(123_450_000n, 8, 0)).toBe('1.2345');
    expect(baseUnitsToDecimal(100_000_000n, 8, 0)).toBe('1');
    expect(baseUnitsToDecimal(150_000_000n, 8, 2)).toBe('1.50');
    expect(baseUnitsToDecimal(-5n, 8, 0)).toBe('-0.00000005');
  });

  it('reads the payout thresholds people choose as exact base units and refuses anything else', () => {
    expect(['0.001', '0.01', '0.1'].map((text) => parseCoinAmount(text))).toEqual([
      100_000n,
      1_000_000n,
      10_000_000n,
    ]);
    expect(parseCoinAmount('21000000.00000001')).toBe(2_100_000_000_000_001n);
    for (const bad of ['', '-1', '1e-3', '0.000000001', '0.100000000', 'abc', '1,5']) {
      expect(() => parseCoinAmount(bad)).toThrow(AmountError);
    }
  });

  it("formats an amount with its coin, per the coin's decimals", () => {
    expect(formatCoinAmount(123_450_000n, 'BTC')).toBe('1.2345 BTC');
    expect(formatCoinAmount(2_100_000_000_000_001n, 'LTC')).toBe('21000000.00000001 LTC');
    expect(formatCoinAmount(1_500_000_000_000n, 'KDA')).toBe('1.5 KDA');
    expect(decimalsOf('KDA')).toBe(COIN_DECIMALS.KDA);
    expect(decimalsOf('XYZ')).toBe(8);
  });
});
