import { describe, expect, it } from 'vitest';
import { applyLine, batchLines, decodeLegacyBatch, newBatch, shareLine, type ShareBatch } from './batch.js';
import { minerRef } from './types.js';

const wallet = minerRef(
  'LTC',
  { kind: 'wallet', address: 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr' },
  'gpu',
);
const account = minerRef('BTC', { kind: 'user', userId: 7, username: 'Samira' }, 'default');

function sampleBatch(): ShareBatch {
  const batch = newBatch();
  batch.shares.push({
    miner: wallet,
    difficulty: 2e-5,
    actualDifficulty: Number.MAX_VALUE,
    networkDifficulty: 1,
    height: 432,
    scheme: 'solo',
    atMs: 1,
  });
  batch.rejects.push({ miner: account, bucketMs: 60_000, reason: 'duplicate', count: 3 });
  batch.blocks.push({
    miner: account,
    height: 900,
    hash: 'ab'.repeat(32),
    scheme: 'pps-plus',
    reward: 9_007_199_254_740_993n,
    subsidy: 1n,
    fees: 9_007_199_254_740_992n,
    networkDifficulty: 1,
    shareDifficulty: 1,
    status: 'pending',
    submitResult: null,
    atMs: 2,
  });
  return batch;
}

describe('share journal records', () => {
  it('round-trips shares, rejects and blocks line by line with money as exact integers', () => {
    const batch = sampleBatch();
    const back = { ...newBatch(), id: batch.id };
    for (const line of batchLines(batch)
      .split('\n')
      .filter((l) => l.length > 0))
      applyLine(back, line);
    expect(back).toEqual(batch);
  });

  it('writes a share as one line of JSON, the miner encoded once and reused', () => {
    const share = {
      miner: account,
      difficulty: 0.5,
      actualDifficulty: 1.25,
      networkDifficulty: 1e21,
      height: 5,
      scheme: 'pps-plus',
      atMs: 3,
    } as const;
    expect(shareLine(share)).toBe('["s",["BTC","u",7,"Samira","default"],0.5,1.25,1e+21,5,"pps-plus",3]\n');
    expect(shareLine(share)).toBe(shareLine({ ...share }));
  });

  it('refuses a malformed line rather than guessing', () => {
    const batch = newBatch();
    expect(() => applyLine(batch, '["s",["BTC","w",1,"","a"],1,1,1,1,"pps-plus",1]')).toThrow();
    expect(() => applyLine(batch, '["r",["XYZ","w","a","","a"],1,"stale",1]')).toThrow();
    expect(() => applyLine(batch, '["x"]')).toThrow();
    expect(() => applyLine(batch, '{}')).toThrow();
    expect(() => applyLine(batch, '["s",["BTC","w","a","","a"],1,1')).toThrow();
    expect(batch.shares).toHaveLength(0);
  });

  it('still reads a batch from the old spill file format', () => {
    const line =
      '{"id":"0b7c4f3e-6a53-4c3e-8f1e-2f5a8d3c9b10","s":[[["BTC","w","bcrt1q","","rig"],2,3,1000,200,"pps-plus",5]],"r":[],' +
      '"b":[{"miner":["BTC","u",7,"Samira","default"],"height":9,"hash":"ab","scheme":"solo","reward":"5000000001","subsidy":"1","fees":"5000000000",' +
      '"networkDifficulty":1,"shareDifficulty":1,"status":"pending","submitResult":null,"atMs":6}]}';
    const batch = decodeLegacyBatch(line);
    expect(batch.shares[0]?.miner.workerKey).toBe('BTC:w:bcrt1q.rig');
    expect(batch.blocks[0]?.reward).toBe(5_000_000_001n);
    expect(() => decodeLegacyBatch('[]')).toThrow();
  });
});
