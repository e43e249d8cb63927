import { describe, expect, it } from 'vitest';
import { SwrCache } from './swr-cache.js';
import { percentChange } from './figures.js';

describe('SwrCache', () => {
  it('loads once for concurrent readers, serves a stale value while refreshing, reloads after invalidate', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new SwrCache<number>(
      1_000,
      () => clock,
      () => undefined,
    );
    const load = () => Promise.resolve(++loads);
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    clock = 2_000;
    expect(await cache.get('a', load)).toBe(1);
    await Promise.resolve();
    expect(await cache.get('a', load)).toBe(2);
    cache.invalidate('a');
    expect(await cache.get('a', load)).toBe(3);
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
