import { describe, expect, it } from 'vitest';
import { Vardiff } from './vardiff.js';

const settings = { start: 8, min: 1, max: 1024, targetSeconds: 10, retargetSeconds: 60, variancePercent: 30 };

function shares(v: Vardiff, fromMs: number, count: number, gapMs: number): { at: number; changes: number[] } {
  const changes: number[] = [];
  let at = fromMs;
  for (let i = 0; i < count; i++) {
    at += gapMs;
    const next = v.onShare(at);
    if (next !== undefined) changes.push(next);
  }
  return { at, changes };
}

describe('vardiff', () => {
  it('starts at the configured difficulty within bounds', () => {
    expect(new Vardiff(settings, 1e-9, 0).difficulty).toBe(8);
    expect(new Vardiff({ ...settings, start: 0.5 }, 1e-9, 0).difficulty).toBe(1);
  });

  it('raises the difficulty of a miner sharing faster than the target, in proportion', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    const { changes } = shares(v, 0, 30, 2_500); // every 2.5 s against a 10 s target
    expect(changes[0]).toBeCloseTo(32, 5);
  });

  it('does not retarget more often than retargetSeconds', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    const { changes } = shares(v, 0, 23, 2_500); // 57.5 s
    expect(changes).toEqual([]);
  });

  it('leaves a miner inside target plus or minus variance alone', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    const { changes } = shares(v, 0, 40, 12_000);
    expect(changes).toEqual([]);
    expect(v.difficulty).toBe(8);
  });

  it('lowers a silent miner in the idle sweep, never raises it there', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    expect(v.onIdle(30_000)).toBeUndefined();
    expect(v.onIdle(80_000)).toBeCloseTo(1, 5); // 8 * 10 / 80 = 1
    expect(v.onIdle(500_000)).toBeUndefined(); // already at the floor
  });

  it('never goes below the protocol minimum or above the maximum', () => {
    const v = new Vardiff({ ...settings, min: 1e-12, start: 1e-6 }, 2 ** -32, 0);
    expect(v.set(1e-15, 0)).toBe(2 ** -32);
    expect(v.set(1e9, 0)).toBe(1024);
  });

  it('honours a miner minimum-difficulty request', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    v.setMinerMinimum(16);
    expect(v.difficulty).toBe(16);
    expect(v.set(2, 0)).toBe(16);
  });

  it('never raises a session above the network difficulty of the work it was sent, nor a hint or d= above it', () => {
    const v = new Vardiff(settings, 1e-9, 0);
    expect(v.capAt(4)).toBe(true);
    expect(v.difficulty).toBe(4);
    expect(v.maximum).toBe(4);
    // A miner sending 10 times too fast would be raised to 40: it stops at the network's 4.
    expect(shares(v, 0, 100, 1_000).changes).toEqual([]);
    expect(v.set(500, 0)).toBe(4);
    // The network's difficulty rises: vardiff may follow up to it, and to the port's max past it.
    expect(v.capAt(2_000)).toBe(false);
    expect(v.set(500, 0)).toBe(500);
    expect(v.set(5_000, 0)).toBe(1024);
  });

  it("keeps the port's minimum when the network difficulty is below it", () => {
    const v = new Vardiff(settings, 1e-9, 0);
    expect(v.capAt(0.001)).toBe(true);
    expect(v.difficulty).toBe(1);
    expect(v.set(8, 0)).toBe(1);
    expect(v.capAt(Number.NaN)).toBe(false);
  });
});
