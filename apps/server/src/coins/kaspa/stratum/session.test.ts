import { describe, expect, it } from 'vitest';
import { powerOfTwoWithin } from './session.js';

describe('power-of-two difficulties (IceRiver firmware)', () => {
  it('rounds down to a power of two when that stays within the bounds', () => {
    expect(powerOfTwoWithin(3e-5, 1e-5, 1)).toBe(2 ** -16);
    expect(powerOfTwoWithin(2 ** -10, 1e-5, 1)).toBe(2 ** -10);
  });

  it("rounds up when rounding down would fall below the port's minimum", () => {
    // 1.2e-5 rounds down to 2^-17 = 7.63e-6, under a minimum of 1e-5: 2^-16 = 1.53e-5 is sent.
    expect(powerOfTwoWithin(1.2e-5, 1e-5, 1)).toBe(2 ** -16);
    expect(powerOfTwoWithin(1e-5, 1e-5, 1)).toBe(2 ** -16);
  });

  it('keeps the difficulty itself when no power of two lies within the bounds', () => {
    expect(powerOfTwoWithin(1.2e-5, 1e-5, 1.5e-5)).toBe(1.2e-5);
  });
});
