/**
 * Monero's tree hash (crypto/tree-hash.c): the Merkle root over a block's transaction hashes
 * (the miner transaction first). Not Bitcoin's tree: the leaves beyond the largest power of two
 * below the count are paired first, and nothing is ever duplicated.
 */
import { keccak256 } from './keccak.js';

/** Largest power of two strictly below `count` (count >= 3). */
function treeHashCount(count: number): number {
  let pow = 2;
  while (pow < count) pow *= 2;
  return pow / 2;
}

export function treeHash(hashes: readonly Uint8Array[]): Uint8Array {
  const count = hashes.length;
  if (count === 0) throw new RangeError('the tree hash needs at least one hash');
  for (const hash of hashes) if (hash.length !== 32) throw new RangeError('tree hash leaves are 32 bytes');
  if (count === 1) return Uint8Array.from(hashes[0] as Uint8Array);
  if (count === 2) return keccak256(hashes[0] as Uint8Array, hashes[1] as Uint8Array);
  let cnt = treeHashCount(count);
  const ints: Uint8Array[] = hashes.slice(0, 2 * cnt - count);
  for (let i = 2 * cnt - count; i < count; i += 2) {
    ints.push(keccak256(hashes[i] as Uint8Array, hashes[i + 1] as Uint8Array));
  }
  while (cnt > 2) {
    cnt /= 2;
    for (let j = 0; j < cnt; j++)
      ints[j] = keccak256(ints[2 * j] as Uint8Array, ints[2 * j + 1] as Uint8Array);
  }
  return keccak256(ints[0] as Uint8Array, ints[1] as Uint8Array);
}
