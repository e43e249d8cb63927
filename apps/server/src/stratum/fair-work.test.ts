import { describe, expect, it } from 'vitest';
import { FairWork, type Unchecked } from './fair-work.js';

interface Owner {
  name: string;
  address: object;
  closed: boolean;
}

/** A scheduler over hand-finished work: each run waits until the test finishes it, in order. */
function harness(limits = { perConnection: 4, total: 100 }, running = 1) {
  let clock = 0;
  const work = new FairWork<Owner>(limits, running, () => clock);
  const ran: string[] = [];
  const refused: string[] = [];
  const finishers: ((good?: boolean) => void)[] = [];
  const add = (owner: Owner, label = owner.name) =>
    work.add(owner, {
      run: () =>
        new Promise<boolean | void>((resolve) => {
          ran.push(label);
          finishers.push(resolve);
        }),
      refuse: (cause: Unchecked) => refused.push(`${label}:${cause}`),
    });
  /** Finishes the oldest running item (its hash met the target or not) and lets the scheduler start the next. */
  const finishOne = async (good?: boolean) => {
    finishers.shift()?.(good);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const tick = (ms: number) => (clock += ms);
  return { work, ran, refused, add, finishOne, tick };
}

const owner = (name: string, address: object = {}): Owner => ({ name, address, closed: false });

describe('fair proof-of-work queue', () => {
  it("runs an honest miner's share next, ahead of a flooder's waiting shares", async () => {
    const h = harness({ perConnection: 50, total: 100 });
    const flooder = owner('flood');
    const honest = owner('honest');
    for (let i = 0; i < 40; i++) h.add(flooder, `flood${i}`);
    await h.finishOne();
    h.add(honest);
    await h.finishOne();
    await h.finishOne();
    // A new address starts level with the flooder: one more flooder share (the tie), then the
    // honest one, ahead of the 37 the flooder still has waiting.
    expect(h.ran).toEqual(['flood0', 'flood1', 'flood2', 'honest']);
    expect(h.work.queued).toBe(37);
  });

  it('shares the hasher between addresses by what each used lately, whatever their connection count', async () => {
    const h = harness({ perConnection: 100, total: 1_000 });
    const manyAddress = {};
    const flooders = [owner('a1', manyAddress), owner('a2', manyAddress), owner('a3', manyAddress)];
    const single = owner('b');
    for (let i = 0; i < 30; i++) for (const f of [...flooders, single]) h.add(f);
    for (let i = 0; i < 40; i++) await h.finishOne();
    const byAddress = {
      a: h.ran.filter((n) => n.startsWith('a')).length,
      b: h.ran.filter((n) => n === 'b').length,
    };
    expect(Math.abs(byAddress.a - byAddress.b)).toBeLessThanOrEqual(1);
  });

  it('gives a flooder nothing for coming from a fresh address: the honest address still goes first', async () => {
    const h = harness({ perConnection: 50, total: 1_000 });
    const honest = owner('honest');
    h.add(honest);
    await h.finishOne();
    const flooder = owner('flood');
    for (let i = 0; i < 10; i++) h.add(flooder);
    await h.finishOne();
    const fresh = owner('fresh');
    for (let i = 0; i < 10; i++) h.add(fresh);
    h.add(honest);
    await h.finishOne();
    await h.finishOne();
    // honest, flood (running), flood (next), then the honest share before the fresh address.
    expect(h.ran.slice(0, 4)).toEqual(['honest', 'flood', 'flood', 'honest']);
  });

  it("refuses a connection's share unchecked past its own bound, charged to it", () => {
    const h = harness({ perConnection: 3, total: 100 });
    const flooder = owner('flood');
    for (let i = 0; i < 6; i++) h.add(flooder, `f${i}`);
    // One runs, three wait, two are refused.
    expect(h.ran).toEqual(['f0']);
    expect(h.refused).toEqual(['f4:own-queue', 'f5:own-queue']);
    expect(h.work.queuedFor(flooder)).toBe(3);
  });

  it('makes room for a newcomer by refusing the newest share of the longest queue when the total is full', () => {
    const h = harness({ perConnection: 10, total: 6 });
    const flooder = owner('flood');
    const other = owner('other');
    const honest = owner('honest');
    for (let i = 0; i < 6; i++) h.add(flooder, `f${i}`);
    h.add(other, 'o0');
    h.add(other, 'o1');
    // f0 runs, f1-f5 and o0 fill the six places; o1 takes f5's.
    expect(h.refused).toEqual(['f5:own-queue']);
    h.add(honest);
    expect(h.refused).toEqual(['f5:own-queue', 'f4:own-queue']);
    expect(h.work.queued).toBe(6);
  });

  it('refuses for the pool, not the miner, when every queue is as short as the newcomer', () => {
    const h = harness({ perConnection: 10, total: 2 });
    h.add(owner('a'));
    h.add(owner('b'));
    h.add(owner('c'));
    h.add(owner('d'));
    expect(h.ran).toEqual(['a']);
    expect(h.refused).toEqual(['d:pool']);
    expect(h.work.refused).toEqual({ 'own-queue': 0, pool: 1 });
  });

  it("drops a closed connection's waiting shares without running them", async () => {
    const h = harness({ perConnection: 10, total: 100 });
    const gone = owner('gone');
    const honest = owner('honest');
    for (let i = 0; i < 5; i++) h.add(gone, `g${i}`);
    gone.closed = true;
    h.add(honest);
    h.add(gone, 'late');
    await h.finishOne();
    await h.finishOne();
    expect(h.ran).toEqual(['g0', 'honest']);
    expect(h.work.queued).toBe(0);
  });

  it('forgives usage over time: a connection idle for a while is served like a new one', async () => {
    const h = harness({ perConnection: 100, total: 1_000 });
    const address = {};
    const old = owner('old', address);
    for (let i = 0; i < 20; i++) h.add(old);
    for (let i = 0; i < 20; i++) await h.finishOne();
    h.tick(10 * 60_000);
    const fresh = owner('fresh');
    for (let i = 0; i < 3; i++) {
      h.add(old);
      h.add(fresh);
    }
    for (let i = 0; i < 6; i++) await h.finishOne();
    // Usage 10 minutes old weighs about 2^-60: the two alternate.
    expect(h.ran.slice(20, 26).sort()).toEqual(['fresh', 'fresh', 'fresh', 'old', 'old', 'old']);
  });

  it('keeps one of two slots for a proven miner: a flood of bad hashes takes the other only', async () => {
    const h = harness({ perConnection: 50, total: 100 }, 2);
    const honest = owner('honest');
    const flooder = owner('flood');
    h.add(honest, 'honest0');
    await h.finishOne(true); // its first share met the target: proven
    for (let i = 0; i < 20; i++) h.add(flooder, `flood${i}`);
    // The unproven flooder gets one slot, however many shares it has waiting.
    expect(h.work.inFlight).toBe(1);
    h.add(honest, 'honest1');
    // The honest share starts at once in the kept slot: it does not wait for the flood's hash.
    expect(h.ran).toEqual(['honest0', 'flood0', 'honest1']);
    expect(h.work.inFlight).toBe(2);
  });

  it('takes the standing away at a bad hash, and gives it to a newcomer at its first good one', async () => {
    const h = harness({ perConnection: 50, total: 100 }, 2);
    const miner = owner('miner');
    const other = owner('other');
    h.add(miner, 'm0');
    await h.finishOne(false); // a share whose hash missed its target
    h.add(other, 'o0');
    h.add(miner, 'm1');
    // Neither is proven: one runs, the other waits for it.
    expect(h.work.inFlight).toBe(1);
    await h.finishOne(true); // o0 was first (least used): `other` is proven now
    expect(h.ran).toEqual(['m0', 'o0', 'm1']);
    h.add(other, 'o1');
    expect(h.ran).toEqual(['m0', 'o0', 'm1', 'o1']);
    expect(h.work.inFlight).toBe(2);
  });

  it('keeps no slot when there is only one: an unproven newcomer is hashed on a lone hasher', () => {
    const h = harness({ perConnection: 50, total: 100 }, 1);
    h.add(owner('new'), 'n0');
    expect(h.ran).toEqual(['n0']);
    expect(h.work.inFlight).toBe(1);
  });
});
