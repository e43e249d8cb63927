import { describe, expect, it } from 'vitest';
import { parseConfig } from './index.js';
import { payoutThresholdBounds } from './payout-thresholds.js';

describe('payout thresholds per coin', () => {
  it('gives every pool coin its default and range in its own base units', () => {
    const thresholds = parseConfig({}).accounting.payoutThresholds;
    expect(payoutThresholdBounds(thresholds, 'BTC')).toEqual({
      minimum: 100_000n,
      default: 1_000_000n,
      maximum: 10_000_000_000n,
    });
    expect(payoutThresholdBounds(thresholds, 'XMR').default).toBe(10_000_000_000n); // 0.01 XMR, 12 decimals
    expect(payoutThresholdBounds(thresholds, 'KAS').minimum).toBe(100_000_000n); // 1 KAS
  });

  it('lets an operator change one coin and keeps the defaults of the others', () => {
    const thresholds = parseConfig({
      accounting: { payoutThresholds: { LTC: { minimum: '0.05', default: '0.1', maximum: '50' } } },
    }).accounting.payoutThresholds;
    expect(payoutThresholdBounds(thresholds, 'LTC').default).toBe(10_000_000n);
    expect(payoutThresholdBounds(thresholds, 'BTC').default).toBe(1_000_000n);
  });

  it('refuses a default below the minimum or a minimum of zero', () => {
    expect(() =>
      parseConfig({
        accounting: { payoutThresholds: { BTC: { minimum: '0.1', default: '0.01', maximum: '1' } } },
      }),
    ).toThrow(/minimum must be positive and at most the default/);
    expect(() =>
      parseConfig({
        accounting: { payoutThresholds: { BTC: { minimum: '0', default: '0.01', maximum: '1' } } },
      }),
    ).toThrow(/minimum must be positive/);
  });
});
