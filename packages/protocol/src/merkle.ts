/** Merkle trees of transaction ids (all hashes in internal byte order). */
import { sha256d } from './hash.js';
import { bytesToWords, merkleNodeWords, wordsToBytes } from './sha256-fast.js';

function assertHash(hash: Buffer, what: string): void {
  if (hash.length !== 32) throw new RangeError(`${what} must be 32 bytes, got ${hash.length}`);
}

function nextLevel(level: Buffer[]): Buffer[] {
  const next: Buffer[] = [];
  for (let i = 0; i < level.length; i += 2) {
    const left = level[i]!;
    const right = level[i + 1] ?? left;
    next.push(sha256d(Buffer.concat([left, right])));
  }
  return next;
}

/** Merkle root of a list of hashes (Bitcoin rule: an odd last hash pairs with itself). */
export function merkleRoot(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) throw new RangeError('merkle root of no hashes');
  hashes.forEach((h, i) => assertHash(h, `hash #${i}`));
  let level = hashes;
  while (level.length > 1) level = nextLevel(level);
  return Buffer.from(level[0]!);
}

/**
 * Merkle branch of the coinbase (position 0) given the other transactions' hashes in block
 * order: the sibling at each level from the bottom up.
 */
export function merkleBranch(txHashesInternal: Buffer[]): Buffer[] {
  txHashesInternal.forEach((h, i) => assertHash(h, `transaction hash #${i}`));
  const branch: Buffer[] = [];
  // Hashed as 32-bit words with the share path's SHA-256 (no Buffer or hash object per node):
  // a 2,000-transaction template's branch in a few milliseconds.
  let level = txHashesInternal.map((h) => bytesToWords(h));
  while (level.length > 0) {
    const first = Buffer.allocUnsafe(32);
    wordsToBytes(level[0]!, first);
    branch.push(first);
    // The rest pairs among itself; the coinbase side is recomputed per share.
    const next: Int32Array[] = [];
    for (let i = 1; i < level.length; i += 2) {
      const left = level[i]!;
      const node = new Int32Array(8);
      merkleNodeWords(left, level[i + 1] ?? left, node);
      next.push(node);
    }
    level = next;
  }
  return branch;
}

/** Merkle root from the coinbase hash and its branch. */
export function merkleRootFromBranch(coinbaseHash: Buffer, branch: Buffer[]): Buffer {
  assertHash(coinbaseHash, 'coinbase hash');
  const words = bytesToWords(coinbaseHash);
  for (const step of branch) {
    assertHash(step, 'branch entry');
    merkleNodeWords(words, bytesToWords(step), words);
  }
  const root = Buffer.allocUnsafe(32);
  wordsToBytes(words, root);
  return root;
}

const WITNESS_COMMITMENT_HEADER = Buffer.from('6a24aa21a9ed', 'hex');

/**
 * Witness commitment output script (BIP141) for a block whose non-coinbase transactions have
 * these wtxids, with the coinbase witness reserved value of 32 zero bytes: what a node sends
 * as default_witness_commitment.
 */
export function witnessCommitmentScript(wtxidsInternal: Buffer[]): Buffer {
  const root = merkleRoot([Buffer.alloc(32), ...wtxidsInternal]);
  return Buffer.concat([WITNESS_COMMITMENT_HEADER, sha256d(Buffer.concat([root, Buffer.alloc(32)]))]);
}
