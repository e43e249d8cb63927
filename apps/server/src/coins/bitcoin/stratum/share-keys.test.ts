import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ShareKeySet } from './share-keys.js';

const hashOf = (i: number) => createHash('sha256').update(`share ${i}`).digest();

describe('ShareKeySet', () => {
  it('tells a share seen before from a new one, across growth', () => {
    const set = new ShareKeySet();
    for (let i = 0; i < 10_000; i++) expect(set.add(hashOf(i))).toBe(true);
    expect(set.size).toBe(10_000);
    for (let i = 0; i < 10_000; i++) expect(set.add(hashOf(i))).toBe(false);
    expect(set.has(hashOf(10_001))).toBe(false);
    expect(set.has(hashOf(42))).toBe(true);
  });

  it('keeps a hash whose key bytes are all zero', () => {
    const set = new ShareKeySet();
    const zero = Buffer.alloc(32);
    expect(set.add(zero)).toBe(true);
    expect(set.has(zero)).toBe(true);
    expect(set.add(zero)).toBe(false);
  });

  it('costs at most 32 bytes a share and gives the memory back when cleared', () => {
    const set = new ShareKeySet();
    for (let i = 0; i < 100_000; i++) set.add(hashOf(i));
    expect(set.bytes).toBeLessThanOrEqual(100_000 * 32);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.bytes).toBeLessThan(1_000);
    expect(set.has(hashOf(1))).toBe(false);
  });
});
