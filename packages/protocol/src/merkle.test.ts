import bcoin from 'bcoin';
import { describe, expect, it } from 'vitest';
import { fromRpcHex, sha256d, toRpcHex } from './hash.js';
import { merkleBranch, merkleRoot, merkleRootFromBranch, witnessCommitmentScript } from './merkle.js';

// Bitcoin block 100000: four transactions and its merkle root.
const BLOCK_100000_TXIDS = [
  '8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87',
  'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
  '6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4',
  'e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d',
];
const BLOCK_100000_ROOT = 'f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766';

function fakeTxids(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => sha256d(Buffer.from(`tx ${i}`)));
}

describe('merkle trees', () => {
  it('computes the real merkle root of block 100000 from its four txids', () => {
    expect(toRpcHex(merkleRoot(BLOCK_100000_TXIDS.map(fromRpcHex)))).toBe(BLOCK_100000_ROOT);
  });

  it('rebuilds the block 100000 root from the coinbase txid and the branch a miner gets', () => {
    const [coinbase, ...rest] = BLOCK_100000_TXIDS.map(fromRpcHex);
    const branch = merkleBranch(rest);
    expect(branch).toHaveLength(2);
    expect(toRpcHex(merkleRootFromBranch(coinbase!, branch))).toBe(BLOCK_100000_ROOT);
  });

  it('makes the genesis coinbase txid the genesis merkle root', () => {
    const block = bcoin.Block.fromRaw(Buffer.from(bcoin.networks['main']!.genesisBlock, 'hex'));
    const coinbaseTxid = block.txs[0]!.txid();
    expect(toRpcHex(merkleRoot([fromRpcHex(coinbaseTxid)]))).toBe(
      '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
    );
    expect(merkleBranch([])).toEqual([]);
  });

  it('agrees with the full tree for every transaction count from 0 to 40 (odd levels duplicate)', () => {
    for (let n = 0; n <= 40; n++) {
      const coinbase = sha256d(Buffer.from('coinbase'));
      const others = fakeTxids(n);
      const branch = merkleBranch(others);
      expect(branch).toHaveLength(n === 0 ? 0 : Math.ceil(Math.log2(n + 1)));
      expect(merkleRootFromBranch(coinbase, branch).equals(merkleRoot([coinbase, ...others])), `n=${n}`).toBe(
        true,
      );
    }
  });

  it('gives an 11-entry branch for a block of 2,000 transactions', () => {
    expect(merkleBranch(fakeTxids(1999))).toHaveLength(11);
  });

  it('refuses hashes that are not 32 bytes', () => {
    expect(() => merkleRoot([])).toThrow(/no hashes/);
    expect(() => merkleRoot([Buffer.alloc(31)])).toThrow(/32 bytes/);
    expect(() => merkleBranch([Buffer.alloc(33)])).toThrow(/32 bytes/);
    expect(() => merkleRootFromBranch(Buffer.alloc(32), [Buffer.alloc(3)])).toThrow(/32 bytes/);
  });
});

describe('witness commitment', () => {
  it('commits to zero witnesses as Core does for a block with only a coinbase', () => {
    // SHA256d(zero root | zero reserved value)
    const expected = sha256d(Buffer.alloc(64)).toString('hex');
    expect(witnessCommitmentScript([]).toString('hex')).toBe(`6a24aa21a9ed${expected}`);
  });
});
