import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToWords, merkleNodeWords, sha256dInto, wordsToBytes } from './sha256-fast.js';

function nodeSha256d(data: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** Deterministic bytes (a counter run through SHA-256), so every length sees varied data. */
function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let offset = 0, i = 0; offset < length; offset += 32, i++) {
    createHash('sha256').update(`${seed}:${i}`).digest().copy(out, offset);
  }
  return out;
}

describe('word-level SHA-256', () => {
  it('matches node:crypto double SHA-256 for every length from 0 to 300 bytes', () => {
    for (let length = 0; length <= 300; length++) {
      const data = bytes(length, length);
      expect(sha256dInto(data, Buffer.alloc(32)).toString('hex'), `length ${length}`).toBe(
        nodeSha256d(data).toString('hex'),
      );
    }
  });

  it('hashes a 2 KiB transaction like node:crypto', () => {
    const data = bytes(2048, 7);
    expect(sha256dInto(data, Buffer.alloc(32)).equals(nodeSha256d(data))).toBe(true);
  });

  it('computes merkle nodes like node:crypto, also when the output aliases the left input', () => {
    for (let i = 0; i < 50; i++) {
      const left = bytes(32, 1000 + i);
      const right = bytes(32, 2000 + i);
      const words = bytesToWords(left);
      merkleNodeWords(words, bytesToWords(right), words);
      const out = Buffer.alloc(32);
      wordsToBytes(words, out);
      expect(out.equals(nodeSha256d(Buffer.concat([left, right])))).toBe(true);
    }
  });

  it('round-trips bytes through words', () => {
    const data = bytes(32, 3);
    const out = Buffer.alloc(40);
    wordsToBytes(bytesToWords(data), out, 8);
    expect(out.subarray(8).equals(data)).toBe(true);
  });
});
