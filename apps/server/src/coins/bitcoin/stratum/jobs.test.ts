import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { JobManager } from './jobs.js';
import {
  FakeTemplateSource,
  syntheticTemplate,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';

const logger = pino({ level: 'silent' });
const hash = () => randomBytes(32);

function manager(supersededLifetimeMs = 120_000) {
  const source = new FakeTemplateSource();
  const jobs = new JobManager(source, { poolTag: '/t/', extranonce2Size: 4, logger, supersededLifetimeMs });
  jobs.start();
  return { source, jobs };
}

describe('the job manager', () => {
  it('frees the duplicate set of every job a new tip makes stale', () => {
    const { source, jobs } = manager();
    const first = jobs.current!;
    for (let i = 0; i < 1_000; i++) first.seen.add(hash());
    source.push(syntheticTemplate({ previousblockhash: 'cd'.repeat(32), height: 102 }), true);
    expect(first.stale).toBe(true);
    expect(first.seen.size).toBe(0);
    expect(first.seen.bytes).toBeLessThan(1_000);
  });

  it('forgets a job replaced by a refresh once the superseded lifetime has passed', () => {
    const { source, jobs } = manager(1_000);
    const first = jobs.current!;
    first.seen.add(hash());
    source.push(syntheticTemplate({ curtime: 1_700_000_030 }), false);
    const second = jobs.current!;
    expect(jobs.get(first.id)).toBe(first);
    expect(first.stale).toBe(false);
    jobs.trim(second.createdMs + 500);
    expect(jobs.get(first.id)).toBe(first);
    jobs.trim(second.createdMs + 1_001);
    expect(jobs.get(first.id)).toBeUndefined();
    expect(first.seen.size).toBe(0);
    // The current job never expires, however old.
    jobs.trim(second.createdMs + 3_600_000);
    expect(jobs.get(second.id)).toBe(second);
    expect(jobs.size).toBe(1);
  });

  it('puts miners on a new tip with a coinbase-only job, which the template on that tip does not make stale', () => {
    const { source, jobs } = manager();
    const tip = { hash: 'ef'.repeat(32), height: 101, bits: '207fffff', mediantime: 1_699_999_500 };
    const early = jobs.acceptTip(tip)!;
    expect(early).toMatchObject({ clean: true, coinbaseOnly: true });
    expect(early.template).toMatchObject({ prevHashRpc: tip.hash, height: 102, merkleBranch: [] });
    expect(JSON.parse(early.notifyLine)).toMatchObject({ method: 'mining.notify' });
    source.push(syntheticTemplate({ previousblockhash: tip.hash, height: 102 }), true);
    expect(jobs.current).toMatchObject({ clean: false, coinbaseOnly: false });
    expect(early.stale).toBe(false);
    // A tip the miners already work on changes nothing.
    expect(jobs.acceptTip(tip)).toBeUndefined();
  });
});

describe('a template with transactions on a new tip', () => {
  it('goes out as a coinbase-only job at once and as its own job on the next turn', async () => {
    const { source, jobs } = manager();
    const sent: string[] = [];
    jobs.onJob((job) => sent.push(`${job.clean ? 'clean' : 'more'} ${job.template.merkleBranch.length}`));
    const txid = 'ab'.repeat(32);
    const tpl = syntheticTemplate({
      previousblockhash: 'cd'.repeat(32),
      height: 102,
      transactions: [{ data: '0100', txid, hash: txid }],
    });
    source.push(tpl, true);
    expect(sent).toEqual(['clean 0']);
    expect(jobs.current).toMatchObject({
      coinbaseOnly: true,
      template: { height: 102, mintime: tpl.mintime },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['clean 0', 'more 1']);
    expect(jobs.current).toMatchObject({ coinbaseOnly: false, template: { fees: 0n, height: 102 } });
  });
});
