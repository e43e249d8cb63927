import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addressToOutputScript,
  buildShare,
  coinParams,
  jobFromTemplate,
  type ShareInput,
} from '@manjam/protocol';
import { fixtureTemplate } from '../../../../../../packages/protocol/test/test-fixtures.js';
import type { Job } from './jobs.js';
import type { QueuedShare, StratumSession } from './context.js';
import { Sha256dQueue } from './sha256d-queue.js';

const PARAMS = coinParams('BTC', 'regtest');

function job(txCount: number): Job {
  const { template } = fixtureTemplate({ txCount, height: 500, subsidy: 5_000_000_000n, segwit: true });
  const tpl = jobFromTemplate(template, PARAMS, {
    payoutScript: addressToOutputScript('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', PARAMS),
    poolTag: '/Manjam/',
    extranonce1Size: 4,
    extranonce2Size: 4,
  });
  return { template: tpl } as unknown as Job;
}

function fakeSession() {
  const socket = {
    corks: 0,
    uncorks: 0,
    cork() {
      this.corks++;
    },
    uncork() {
      this.uncorks++;
    },
  };
  return { socket } as unknown as StratumSession & { socket: typeof socket };
}

const input = (j: Job, nonce: number): ShareInput => ({
  extranonce1: randomBytes(4),
  extranonce2: randomBytes(4),
  ntime: j.template.curtime,
  nonce,
  version: j.template.version,
});

describe('the SHA-256d batch of one event-loop turn', () => {
  it('answers every share in arrival order with its own hash, across jobs, and refuses only a bad one', async () => {
    const [a, b] = [job(3), job(40)];
    const s1 = fakeSession();
    const s2 = fakeSession();
    const seen: string[] = [];
    const queue = new Sha256dQueue<string>(
      (share, hash) =>
        seen.push(
          `${share.context}:${hash.equals(buildShare(share.job.template, 'sha256d', share.input).hash)}`,
        ),
      (share) => seen.push(`${share.context}:refused`),
    );
    const shares: QueuedShare<string>[] = [
      { session: s1, job: a, input: input(a, 1), context: 'a1' },
      { session: s2, job: b, input: input(b, 2), context: 'b2' },
      { session: s1, job: a, input: { ...input(a, 3), extranonce2: Buffer.alloc(2) }, context: 'bad' },
      { session: s2, job: a, input: input(a, 4), context: 'a4' },
      { session: s1, job: b, input: input(b, 5), context: 'b5' },
      { session: s1, job: a, input: input(a, 6), context: 'a6' },
    ];
    for (const s of shares) queue.add(s);
    expect(queue.size).toBe(6);
    expect(seen).toEqual([]);
    // Sockets stay open while shares wait (a new job written meanwhile leaves at once); each is
    // corked once while the batch is judged, so its replies leave in one write.
    expect([s1.socket.corks, s2.socket.corks]).toEqual([0, 0]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a1:true', 'b2:true', 'bad:refused', 'a4:true', 'b5:true', 'a6:true']);
    expect([s1.socket.corks, s2.socket.corks]).toEqual([1, 1]);
    expect([s1.socket.uncorks, s2.socket.uncorks]).toEqual([1, 1]);
    expect(queue.size).toBe(0);
  });

  it('judges at most a slice of shares per turn, in arrival order, so other work runs between slices', async () => {
    const a = job(3);
    const s1 = fakeSession();
    const seen: string[] = [];
    const queue = new Sha256dQueue<string>(
      (share) => seen.push(share.context),
      (share) => seen.push(`${share.context}:refused`),
      undefined,
      2,
    );
    for (let i = 1; i <= 5; i++) queue.add({ session: s1, job: a, input: input(a, i), context: `a${i}` });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await turn();
    expect(seen).toEqual(['a1', 'a2']);
    await turn();
    expect(seen).toEqual(['a1', 'a2', 'a3', 'a4']);
    await turn();
    expect(seen).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(queue.size).toBe(0);
  });
});
