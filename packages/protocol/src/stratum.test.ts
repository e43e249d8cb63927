import { describe, expect, it } from 'vitest';
import {
  POOL_VERSION_MASK,
  STRATUM_ERROR,
  applyVersionBits,
  negotiateVersionMask,
  parseHexUint32,
  parseSubmitParams,
  splitWorkerName,
  stratumError,
  subscribeResult,
  toHexUint32,
} from './stratum.js';

describe('Stratum errors', () => {
  it('uses the codes miners know: 20 to 25', () => {
    expect(STRATUM_ERROR).toEqual({
      OTHER: 20,
      JOB_NOT_FOUND: 21,
      DUPLICATE: 22,
      LOW_DIFFICULTY: 23,
      UNAUTHORIZED: 24,
      NOT_SUBSCRIBED: 25,
    });
  });

  it('builds [code, message, null] with a default message', () => {
    expect(stratumError(STRATUM_ERROR.DUPLICATE)).toEqual([22, 'Duplicate share', null]);
    expect(stratumError(STRATUM_ERROR.LOW_DIFFICULTY, 'Low difficulty share (0.5)')).toEqual([
      23,
      'Low difficulty share (0.5)',
      null,
    ]);
  });
});

describe('mining.submit parameters', () => {
  const good = ['bc1qworker.rig1', 'a1', '0000000000000001', '655b9a80', 'deadbeef'];

  it('parses a submit from an ASIC with version bits', () => {
    const parsed = parseSubmitParams([...good, '00002000'], 8);
    expect(parsed).toEqual({
      ok: true,
      value: {
        workerName: 'bc1qworker.rig1',
        jobId: 'a1',
        extranonce2: Buffer.from('0000000000000001', 'hex'),
        ntime: 0x655b9a80,
        nonce: 0xdeadbeef,
        versionBits: 0x2000,
      },
    });
  });

  it('parses a submit without version bits', () => {
    const parsed = parseSubmitParams(good, 8);
    expect(parsed.ok && parsed.value.versionBits).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['params that are not a list', { a: 1 }, 'Invalid submit parameters'],
    ['too few params', ['w', 'j', '00'], 'Invalid submit parameters'],
    [
      'a short extranonce2',
      ['w', 'j', '0001', '655b9a80', 'deadbeef'],
      'Incorrect size of extranonce2 (expected 8 bytes)',
    ],
    [
      'a non-hex extranonce2',
      ['w', 'j', 'zz00000000000001', '655b9a80', 'deadbeef'],
      'Incorrect size of extranonce2 (expected 8 bytes)',
    ],
    ['a 7-digit ntime', ['w', 'j', '0000000000000001', '55b9a80', 'deadbeef'], 'Incorrect size of ntime'],
    ['a numeric nonce', ['w', 'j', '0000000000000001', '655b9a80', 3735928559], 'Incorrect size of nonce'],
    ['bad version bits', [...good, 'xyz'], 'Invalid version bits'],
    ['an empty job id', ['w', '', '0000000000000001', '655b9a80', 'deadbeef'], 'Invalid worker or job id'],
  ])('answers error 20 for %s', (_name, params, message) => {
    expect(parseSubmitParams(params, 8)).toEqual({ ok: false, error: [20, message, null] });
  });
});

describe('version rolling (BIP 310)', () => {
  it('answers the pool mask AND the requested mask', () => {
    expect(POOL_VERSION_MASK).toBe(0x1fffe000);
    expect(negotiateVersionMask('ffffffff')).toBe(0x1fffe000);
    expect(negotiateVersionMask('00fff000')).toBe(0x00ffe000);
    expect(negotiateVersionMask('nonsense')).toBe(0);
  });

  it('applies rolled bits within the mask and rejects bits outside it', () => {
    expect(applyVersionBits(0x20000000, 0x00002000, 0x1fffe000)).toEqual({ ok: true, value: 0x20002000 });
    expect(applyVersionBits(0x20000000, 0x1fffe000, 0x1fffe000)).toEqual({ ok: true, value: 0x3fffe000 });
    expect(applyVersionBits(0x20000000, 0x00000001, 0x1fffe000)).toEqual({
      ok: false,
      error: [20, 'Version bits outside the negotiated mask', null],
    });
  });
});

describe('other message helpers', () => {
  it('builds the mining.subscribe result', () => {
    expect(subscribeResult('s1', Buffer.from('f000000d', 'hex'), 8)).toEqual([
      [
        ['mining.set_difficulty', 's1'],
        ['mining.notify', 's1'],
      ],
      'f000000d',
      8,
    ]);
  });

  it('reads 8-hex-digit integers only', () => {
    expect(parseHexUint32('ffffffff')).toBe(0xffffffff);
    expect(parseHexUint32('0x1234567')).toBeUndefined();
    expect(toHexUint32(0x2000)).toBe('00002000');
  });

  it('splits account.worker logins', () => {
    expect(splitWorkerName('alice.rig-01')).toEqual({ account: 'alice', worker: 'rig-01' });
    expect(splitWorkerName('alice')).toEqual({ account: 'alice', worker: 'default' });
    expect(splitWorkerName('alice.')).toEqual({ account: 'alice', worker: 'default' });
  });
});
