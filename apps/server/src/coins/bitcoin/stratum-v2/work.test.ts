import type { JobTemplate } from '@manjam/protocol';
import { encodeMessage } from '@manjam/protocol/sv2';
import { describe, expect, it } from 'vitest';
import type { Job } from '../stratum/jobs.js';
import { extendedJob, extendedJobFrames, newPrevHash } from './work.js';

function job(seq: number): Job {
  const template = {
    height: 101,
    prevHashRpc: '11'.repeat(31) + '22',
    version: 0x20000000,
    bits: '207fffff',
    curtime: 1_700_000_000,
    coinb1: Buffer.alloc(58, 1),
    coinb2: Buffer.alloc(91, 2),
    merkleBranch: [Buffer.alloc(32, 3), Buffer.alloc(32, 4)],
  } as unknown as JobTemplate;
  return { seq, template, clean: true } as unknown as Job;
}

describe('an extended channel job encoded once per job', () => {
  it('gives each channel the bytes its own encoding would have, job then SetNewPrevHash', () => {
    const j = job(7);
    for (const channelId of [1, 2, 0xfffffffe]) {
      const frames = extendedJobFrames(channelId, j, true);
      expect(frames).toEqual([
        encodeMessage(extendedJob(channelId, j, true)),
        encodeMessage(newPrevHash(channelId, j)),
      ]);
    }
  });

  it('sends an active job (a refresh on the same tip) alone, with its min_ntime', () => {
    const j = job(8);
    expect(extendedJobFrames(5, j, false)).toEqual([encodeMessage(extendedJob(5, j, false))]);
  });

  it('does not let one channel id leak into another channel copy', () => {
    const j = job(9);
    const first = extendedJobFrames(1, j, true);
    extendedJobFrames(99, j, true);
    expect(first[0]).toEqual(encodeMessage(extendedJob(1, j, true)));
  });
});
