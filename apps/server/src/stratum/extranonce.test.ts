import { describe, expect, it } from 'vitest';
import { ExtranonceAllocator, parseExtranonce1 } from './extranonce.js';

describe('extranonce1 allocation', () => {
  it('hands out distinct 4-byte values and wraps around the space', () => {
    const allocator = new ExtranonceAllocator(0xfffffffe);
    const values = [allocator.allocate(), allocator.allocate(), allocator.allocate()].map((b) =>
      b.toString('hex'),
    );
    expect(values).toEqual(['fffffffe', 'ffffffff', '00000000']);
    expect(allocator.size).toBe(3);
  });

  it('resumes a previous session id when no one holds it', () => {
    const allocator = new ExtranonceAllocator(5);
    expect(allocator.allocate('CAFEBABE').toString('hex')).toBe('cafebabe');
  });

  it('gives a fresh value when the resumed one is taken, and never a duplicate', () => {
    const allocator = new ExtranonceAllocator(0xcafebabe);
    const first = allocator.allocate();
    const second = allocator.allocate(first.toString('hex'));
    expect(second.equals(first)).toBe(false);
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(allocator.allocate().toString('hex'));
    expect(seen.size).toBe(1000);
    expect(seen.has(first.toString('hex'))).toBe(false);
  });

  it('reuses a value only after it is released', () => {
    const allocator = new ExtranonceAllocator(7);
    const held = allocator.allocate();
    expect(allocator.allocate(held.toString('hex')).equals(held)).toBe(false);
    allocator.release(held);
    expect(allocator.allocate(held.toString('hex')).equals(held)).toBe(true);
  });

  it('ignores a session id that is not 8 hex digits', () => {
    expect(parseExtranonce1('xyz')).toBeUndefined();
    expect(parseExtranonce1('0000000g')).toBeUndefined();
    expect(parseExtranonce1('000000ff')).toBe(255);
  });

  it('keeps each Stratum instance to its own leading byte, even for a resumed id', () => {
    const a = new ExtranonceAllocator(0xfffffe, 1);
    const b = new ExtranonceAllocator(0xfffffe, 2);
    expect([a.allocate(), a.allocate(), a.allocate()].map((v) => v.toString('hex'))).toEqual([
      '01fffffe',
      '01ffffff',
      '01000000',
    ]);
    expect(b.allocate().toString('hex')).toBe('02fffffe');
    // A miner resuming a session that instance 1 gave it gets a value of instance 2 here.
    expect(b.allocate('01000005').toString('hex')).toMatch(/^02/);
    expect(b.allocate('020000aa').toString('hex')).toBe('020000aa');
  });

  it('hands out every 2-byte value once (Kaspa miners), then has none free', () => {
    const allocator = new ExtranonceAllocator(0xfffe, undefined, 2);
    const seen = new Set<string>();
    for (let i = 0; i < 65_536; i++) seen.add(allocator.allocate().toString('hex'));
    expect(seen.size).toBe(65_536);
    expect([...seen].every((hex) => hex.length === 4)).toBe(true);
    expect(allocator.free).toBe(0);
    expect(() => allocator.allocate()).toThrow('exhausted');
    allocator.release(Buffer.from('fffe', 'hex'));
    expect(allocator.allocate().toString('hex')).toBe('fffe');
  });

  it('gives a 2-byte allocator of a Stratum instance 256 values under its own leading byte', () => {
    const allocator = new ExtranonceAllocator(0, 7, 2);
    expect(allocator.free).toBe(256);
    const values = Array.from({ length: 256 }, () => allocator.allocate().toString('hex'));
    expect(values.every((hex) => hex.startsWith('07'))).toBe(true);
    expect(new Set(values).size).toBe(256);
    expect(allocator.free).toBe(0);
  });
});
