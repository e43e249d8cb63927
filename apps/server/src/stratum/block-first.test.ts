import { describe, expect, it } from 'vitest';
import { creditedDifficulty, judgeWork, OwnBlocks } from './block-first.js';

describe('block first', () => {
  it('calls a hash that meets the network target a block, whatever the share target', () => {
    expect(judgeWork(true, false)).toBe('block');
    expect(judgeWork(true, true)).toBe('block');
    expect(judgeWork(false, true)).toBe('share');
    expect(judgeWork(false, false)).toBe('low_difficulty');
    expect(creditedDifficulty(64)).toBe(64);
  });
});

describe('the pool extends a parent with its own block', () => {
  it('makes work on that parent stale once the pool has submitted a block on it', () => {
    const own = new OwnBlocks();
    expect(own.extends('parent-a')).toBe(false);
    own.claim('parent-a', 'block-1');
    expect(own.extends('parent-a')).toBe(true);
    // Someone else's parent (or the pool's own new tip) is untouched.
    expect(own.extends('parent-b')).toBe(false);
    expect(own.extends('block-1')).toBe(false);
  });

  it('opens the parent again when the node does not keep the pool block on its main chain', () => {
    const own = new OwnBlocks();
    own.claim('parent-a', 'block-1');
    own.withdraw('parent-a', 'block-1');
    expect(own.extends('parent-a')).toBe(false);
  });

  it('keeps the parent claimed while another of the pool blocks on it still stands', () => {
    const own = new OwnBlocks();
    own.claim('parent-a', 'block-1');
    own.claim('parent-a', 'block-2');
    own.withdraw('parent-a', 'block-1');
    expect(own.extends('parent-a')).toBe(true);
  });

  it('opens the parent again when the node builds on it again, whichever block claimed it', () => {
    const own = new OwnBlocks();
    own.claim('parent-a', 'block-1');
    own.release('parent-a');
    expect(own.extends('parent-a')).toBe(false);
  });

  it('remembers only the newest parents it was given room for', () => {
    const own = new OwnBlocks(2);
    own.claim('parent-a', 'block-1');
    own.claim('parent-b', 'block-2');
    own.claim('parent-c', 'block-3');
    expect([own.extends('parent-a'), own.extends('parent-b'), own.extends('parent-c')]).toEqual([
      false,
      true,
      true,
    ]);
  });
});
