import { describe, expect, it } from 'vitest';
import { parseKaspaCoinbasePayload } from './coinbase.js';

describe('the Kaspa coinbase payload', () => {
  it('reads blue score, subsidy, script and extra data in kaspad’s order', () => {
    // blue score 1234, subsidy 500 KAS, script version 0, a 34-byte P2PK script, extra data "manjam".
    const script = `20${'ab'.repeat(32)}ac`;
    const hex =
      'd204000000000000' + // blue score 1234, u64 LE
      '00743ba40b000000' + // 50,000,000,000 sompi, u64 LE
      '0000' + // script version
      '22' + // script length 34
      script +
      Buffer.from('manjam').toString('hex');
    const payload = parseKaspaCoinbasePayload(hex);
    expect(payload.blueScore).toBe(1234n);
    expect(payload.subsidy).toBe(50_000_000_000n);
    expect(payload.scriptVersion).toBe(0);
    expect(Buffer.from(payload.script).toString('hex')).toBe(script);
    expect(Buffer.from(payload.extraData).toString()).toBe('manjam');
  });

  it('refuses a payload that ends before its script does', () => {
    expect(() => parseKaspaCoinbasePayload(`${'00'.repeat(18)}22${'ab'.repeat(10)}`)).toThrow(RangeError);
    expect(() => parseKaspaCoinbasePayload('00')).toThrow(RangeError);
  });
});
