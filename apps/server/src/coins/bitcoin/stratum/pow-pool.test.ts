import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { scryptPow } from '@manjam/protocol';
import { ScryptPool } from './pow-pool.js';

describe('Scrypt validation threads', () => {
  const pool = new ScryptPool(2);
  afterAll(() => pool.close());

  it('answers every header of a burst with its scrypt hash, in any batch shape', async () => {
    const headers = Array.from({ length: 23 }, () => randomBytes(80));
    const hashes = await Promise.all(headers.map((h) => pool.hash(h)));
    hashes.forEach((hash, i) => expect(hash.toString('hex')).toBe(scryptPow(headers[i]!).toString('hex')));
    expect(pool.outstanding).toBe(0);
  });

  it('answers a lone header too', async () => {
    const header = randomBytes(80);
    expect((await pool.hash(header)).equals(scryptPow(header))).toBe(true);
  });

  it('starts its threads with the first header, not before', async () => {
    const lazy = new ScryptPool(2);
    try {
      expect(lazy.threads).toBe(0);
      const header = randomBytes(80);
      expect((await lazy.hash(header)).equals(scryptPow(header))).toBe(true);
      expect(lazy.threads).toBe(2);
    } finally {
      await lazy.close();
    }
  });

  it('refuses work once closed', async () => {
    const closing = new ScryptPool(1);
    await closing.close();
    await expect(closing.hash(randomBytes(80))).rejects.toThrow(/closed/);
  });
});
