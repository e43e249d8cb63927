// The region's side of the job feed with a clock: which work counts as current, when the coin's
// work stops and how it comes back. The integration tests run it on real NATS and bcoin.
import type { BlockTemplateRpc } from '@manjam/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NatsConnection } from 'nats';
import type { SourceAvailability } from '../source.js';
import {
  BTC_REGTEST_ADDRESS,
  syntheticTemplate,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import { CoreJobSource } from './core-source.js';
import { CoreSubmitter } from './core-submit.js';
import { encode, stateSubject, workSubject, type StateMessage, type WorkMessage } from './messages.js';

const SILENCE_MS = 5_000;
const identity = (workId: string, publishedAt = Date.now()) => ({
  coin: 'BTC',
  network: 'regtest',
  poolAddress: BTC_REGTEST_ADDRESS,
  workId,
  publishedAt,
});
const work = (workId: string, template: BlockTemplateRpc, publishedAt?: number): WorkMessage => ({
  ...identity(workId, publishedAt),
  template,
  info: { newTip: true, reason: 'blocknotify' },
});
const state = (workId: string, up = true, message = 'node answers'): StateMessage => ({
  ...identity(workId),
  up,
  since: Date.now(),
  message,
});

describe('a region source over the core job feed', () => {
  const handlers = new Map<string, (data: Uint8Array) => void>();
  const publish = (subject: string, message: WorkMessage | StateMessage): void =>
    handlers.get(subject)?.(encode(message));
  let source: CoreJobSource;
  let templates: BlockTemplateRpc[];
  let changes: SourceAvailability[];

  beforeEach(async () => {
    vi.useFakeTimers();
    handlers.clear();
    source = new CoreJobSource({
      listen: (subject, onData) => {
        handlers.set(subject, onData);
        return () => handlers.delete(subject);
      },
      coin: 'BTC',
      network: 'regtest',
      readLast: () => Promise.resolve(undefined),
      // Never asked in these tests: no block is found.
      submitter: new CoreSubmitter({
        nc: {} as NatsConnection,
        coin: 'BTC',
        region: 'riyadh',
        logger: testLogger,
      }),
      silenceMs: SILENCE_MS,
      logger: testLogger,
    });
    const started = source.start();
    await vi.advanceTimersByTimeAsync(0);
    publish(workSubject('BTC'), work('a:1', syntheticTemplate({ height: 101 })));
    publish(stateSubject('BTC'), state('a:1'));
    await started;
    templates = [];
    changes = [];
    source.onTemplate((t) => templates.push(t));
    source.onAvailability((a) => changes.push(a));
  });
  afterEach(() => {
    source.close();
    vi.useRealTimers();
  });

  it('learns the pool address and the current template from the core', () => {
    expect(source.poolAddress).toBe(BTC_REGTEST_ADDRESS);
    expect(source.current()?.height).toBe(101);
    expect(source.availability().up).toBe(true);
  });

  it('ignores an older message of the same publisher, and takes a later leader’s work', () => {
    publish(workSubject('BTC'), work('a:3', syntheticTemplate({ height: 103 })));
    publish(workSubject('BTC'), work('a:2', syntheticTemplate({ height: 102 })));
    expect(source.current()?.height).toBe(103);
    vi.advanceTimersByTime(10);
    publish(workSubject('BTC'), work('b:1', syntheticTemplate({ height: 104 })));
    expect(templates.map((t) => t.height)).toEqual([103, 104]);
  });

  it('ignores work for another network', () => {
    publish(workSubject('BTC'), { ...work('a:9', syntheticTemplate({ height: 999 })), network: 'mainnet' });
    expect(source.current()?.height).toBe(101);
  });

  it('stops the coin after the silence limit without a word from the core, and takes it up with the current template at the next one', () => {
    for (let s = 0; s < 4; s++) {
      vi.advanceTimersByTime(1_000);
      publish(stateSubject('BTC'), state('a:1'));
    }
    expect(changes).toEqual([]);
    vi.advanceTimersByTime(SILENCE_MS);
    expect(changes.map((c) => c.up)).toEqual([false]);
    expect(changes[0]?.message).toBe(
      'BTC: no job from the core for 5 s; work stopped, miners sent to their backup pools',
    );
    // Any word from the core brings the coin back; its work goes out once, as a fresh job.
    publish(workSubject('BTC'), work('a:2', syntheticTemplate({ height: 102 })));
    expect(changes.map((c) => c.up)).toEqual([false, true]);
    expect(templates.map((t) => t.height)).toEqual([102]);
  });

  it("stops the coin with the core's own reason when the core says its nodes are silent", () => {
    publish(stateSubject('BTC'), state('a:1', false, 'BTC: no node has answered for 30 s; work stopped'));
    expect(source.availability()).toMatchObject({
      up: false,
      message: 'BTC: no node has answered for 30 s; work stopped',
    });
    publish(stateSubject('BTC'), state('a:1'));
    expect(source.availability().up).toBe(true);
    expect(templates.map((t) => t.height)).toEqual([101]);
  });
});
