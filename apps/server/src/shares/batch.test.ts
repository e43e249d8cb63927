import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch, newBatch } from './batch.js';
import { minerRef } from './types.js';

describe('spilled share batches', () => {
  it('round-trips shares, rejects and blocks with money as exact integers', () => {
    const batch = newBatch();
    const wallet = minerRef('LTC', { kind: 'wallet', address: 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr' }, 'gpu');
    const account = minerRef('BTC', { kind: 'user', userId: 7, username: 'Samira' }, 'default');
    batch.shares.push({ miner: wallet, difficulty: 2e-5, actualDifficulty: 0.5, networkDifficulty: 1, height: 432, scheme: 'solo', atMs: 1 });
    batch.rejects.push({ miner: account, bucketMs: 60_000, reason: 'duplicate', count: 3 });
    batch.blocks.push({
      miner: account, height: 900, hash: 'ab'.repeat(32), scheme: 'pps-plus', reward: 9_007_199_254_740_993n, subsidy: 1n, fees: 9_007_199_254_740_992n,
      networkDifficulty: 1, shareDifficulty: 1, status: 'pending', submitResult: null, atMs: 2,
    });
    expect(decodeBatch(encodeBatch(batch))).toEqual(batch);
  });

  it('refuses a malformed line rather than guessing', () => {
    expect(() => decodeBatch('{"id":"x","s":[[["BTC","w",1,"","a"],1,1,1,1,"pps-plus",1]],"r":[],"b":[]}')).toThrow();
    expect(() => decodeBatch('{"id":"x","s":[],"r":[[["XYZ","w","a","","a"],1,"stale",1]],"b":[]}')).toThrow();
    expect(() => decodeBatch('[]')).toThrow();
  });
});
