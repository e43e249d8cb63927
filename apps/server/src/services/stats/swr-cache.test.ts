import { describe, expect, it } from 'vitest';
import { SwrCache } from './swr-cache.js';
import { percentChange } from './figures.js';

describe('SwrCache', () => {
  it('loads once for concurrent readers, serves a value within half its age as is, reloads after invalidate', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new SwrCache<number>(
      1_000,
      () => clock,
      () => undefined,
    );
    const load = () => Promise.resolve(++loads);
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    clock = 400;
    expect(await cache.get('a', load)).toBe(1);
    expect(loads).toBe(1);
    cache.invalidate('a');
    expect(await cache.get('a', load)).toBe(2);
  });

  it('serves a value past half its age while one refresh runs, and the refreshed one next', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new SwrCache<number>(
      1_000,
      () => clock,
      () => undefined,
    );
    const load = () => Promise.resolve(++loads);
    await cache.get('a', load);
    clock = 700;
    expect(await cache.get('a', load)).toBe(1);
    await Promise.resolve();
    expect(await cache.get('a', load)).toBe(2);
  });

  it('never serves a value older than its age: a read after a quiet spell waits for fresh data', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new SwrCache<{ n: number; at: number }>(
      1_000,
      () => clock,
      () => undefined,
    );
    const load = () => Promise.resolve({ n: ++loads, at: clock });
    await cache.get('a', load);
    clock = 90_000;
    const read = await cache.get('a', load);
    expect(read).toEqual({ n: 2, at: 90_000 });
  });

  it('refreshes a value marked stale in the background on its next read', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new SwrCache<number>(
      1_000,
      () => clock,
      () => undefined,
    );
    const load = () => Promise.resolve(++loads);
    await cache.get('a', load);
    cache.markStale('a');
    clock = 100;
    expect(await cache.get('a', load)).toBe(1);
    await Promise.resolve();
    expect(await cache.get('a', load)).toBe(2);
  });

  it('forgets a failed first load so the next reader tries again', async () => {
    const cache = new SwrCache<number>(
      1_000,
      () => 0,
      () => undefined,
    );
    await expect(cache.get('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', () => Promise.resolve(7))).toBe(7);
  });
});

describe('percentChange', () => {
  it('writes a signed percent with one decimal', () => {
    expect(percentChange(112.5, 100)).toBe('+12.5%');
    expect(percentChange(97, 100)).toBe('-3.0%');
    expect(percentChange(100, 100)).toBe('0.0%');
    expect(percentChange(5, 0)).toBe('new');
    expect(percentChange(0, 0)).toBe('0.0%');
    expect(percentChange(150n, 100n)).toBe('+50.0%');
  });
});
