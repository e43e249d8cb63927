import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '@manjam/protocol/sv2';
import { JobManager } from '../stratum/jobs.js';
import {
  FakeTemplateSource,
  frozenTemplate,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import { extendedJob, extendedJobFrame, newPrevHash, newPrevHashFrame } from './work.js';

function currentJob() {
  const source = new FakeTemplateSource('BTC', undefined, frozenTemplate(40));
  const jobs = new JobManager(source, {
    poolTag: '/t/',
    extranonce2Size: 4,
    logger: pino({ level: 'silent' }),
  });
  jobs.start();
  return jobs.current!;
}

describe("a job's V2 messages, encoded once per job", () => {
  const job = currentJob();

  it('give each extended channel the bytes of its own NewExtendedMiningJob, future and active', () => {
    for (const channelId of [1, 2, 255, 256, 70_000, 2 ** 32 - 1]) {
      for (const future of [true, false]) {
        expect(extendedJobFrame(channelId, job, future)).toEqual(
          encodeMessage(extendedJob(channelId, job, future)),
        );
      }
    }
  });

  it("give each channel the bytes of its own SetNewPrevHash, which its miner decodes with the channel's id", () => {
    for (const channelId of [1, 3, 65_536]) {
      const frame = newPrevHashFrame(channelId, job);
      expect(frame).toEqual(encodeMessage(newPrevHash(channelId, job)));
      const decoded = decodeMessage(frame);
      expect(decoded.ok && decoded.message).toMatchObject({
        type: 'SetNewPrevHash',
        channelId,
        jobId: job.seq,
      });
    }
  });

  it("never let one channel's copy change another's", () => {
    const first = extendedJobFrame(1, job, true);
    extendedJobFrame(2, job, true);
    expect(first).toEqual(encodeMessage(extendedJob(1, job, true)));
  });
});
