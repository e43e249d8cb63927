import { describe, expect, it } from 'vitest';
import type { PayoutSetting } from '../../lib/api-types';
import { parseThreshold } from '../alerts/ThresholdFields';
import { thresholdUnits } from './PayoutThresholdForm';

const btc: PayoutSetting = {
  coin: 'BTC',
  address: null,
  pendingAddress: null,
  pendingEffectiveAt: null,
  threshold: '1000000',
  minimumThreshold: '100000',
  maximumThreshold: '100000000',
};

describe('numeric fields take the digits people type', () => {
  it('accepts a payout threshold typed "٠٫٠٥" or "۰٫۰۵" as 0.05 BTC, like "0.05"', () => {
    expect(thresholdUnits('0.05', btc)).toBe(5_000_000n);
    expect(thresholdUnits('٠٫٠٥', btc)).toBe(5_000_000n);
    expect(thresholdUnits('۰٫۰۵', btc)).toBe(5_000_000n);
    expect(thresholdUnits('٠٫٠٠٠٠١', btc)).toBeNull();
  });

  it('accepts alert thresholds typed in Arabic-Indic digits', () => {
    expect(parseThreshold('١٥', 5, 120)).toBe(15);
    expect(parseThreshold('۳۰', 5, 120)).toBe(30);
    expect(parseThreshold('٢٠٠', 5, 120)).toBeUndefined();
    expect(parseThreshold(' ', 5, 120)).toBeNull();
  });
});
