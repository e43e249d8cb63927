import { describe, expect, it } from 'vitest';
import { AmountError, baseUnitsToDecimal, decimalToBaseUnits, nodeAmountToBaseUnits } from './amount.js';
import { RawJsonNumber, stringifyRpcBody } from './rpc.js';

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

  it('sends amounts to the node as bare JSON numbers with every digit kept', () => {
    const body = stringifyRpcBody({ params: ['', { addr1: new RawJsonNumber('20999999.99999999') }, 1, 'a "quoted" comment'] });
    expect(body).toBe('{"params":["",{"addr1":20999999.99999999},1,"a \\"quoted\\" comment"]}');
    expect(() => new RawJsonNumber('1e5')).toThrow(/not a decimal/);
  });
});
