import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes.js';
import {
  kaspaBlockHash,
  kaspaPrePowHash,
  parseRpcBlockHeader,
  serializeKaspaHeader,
  toRpcBlockHeader,
  type KaspaHeader,
} from './header.js';
import {
  BRIDGE_TEMPLATE,
  GENESIS,
  GENESIS_ZERO_HASH,
  MAINNET_BLOCK,
} from '../../test/kaspa/test-fixtures.js';

function genesisHeader(network: keyof typeof GENESIS): KaspaHeader {
  const g = GENESIS[network];
  const zero = hexToBytes(GENESIS_ZERO_HASH, 'zero');
  return {
    version: 0,
    parents: [],
    hashMerkleRoot: hexToBytes(g.hashMerkleRoot, 'root'),
    acceptedIdMerkleRoot: zero,
    utxoCommitment: hexToBytes(g.utxoCommitment, 'utxo'),
    timestamp: g.timestamp,
    bits: g.bits,
    nonce: g.nonce,
    daaScore: g.daaScore,
    blueScore: 0n,
    blueWork: 0n,
    pruningPoint: zero,
  };
}

describe('Kaspa header hash', () => {
  it.each(Object.keys(GENESIS) as (keyof typeof GENESIS)[])(
    'reproduces the published %s genesis hash from its header fields',
    (network) => {
      expect(bytesToHex(kaspaBlockHash(genesisHeader(network)))).toBe(GENESIS[network].hash);
    },
  );

  it('hashes a real mainnet block, as kaspad’s GetBlock returns it, to its block hash', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    expect(header.parents).toHaveLength(54);
    expect(header.parents[30]).toHaveLength(2);
    expect(bytesToHex(kaspaBlockHash(header))).toBe(MAINNET_BLOCK.hash);
  });

  it('computes the pre-PoW hash kaspa-stratum-bridge expects of its example template', () => {
    const header = parseRpcBlockHeader(BRIDGE_TEMPLATE.header);
    expect(bytesToHex(kaspaPrePowHash(header))).toBe(BRIDGE_TEMPLATE.prePow);
  });

  it('ignores timestamp and nonce in the pre-PoW hash but not in the block hash', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    const moved = { ...header, timestamp: header.timestamp + 1000n, nonce: 7n };
    expect(kaspaPrePowHash(moved)).toEqual(kaspaPrePowHash(header));
    expect(kaspaBlockHash(moved)).not.toEqual(kaspaBlockHash(header));
  });

  // rusty-kaspa's test_hash_blue_work vectors: 0 -> eight zero bytes, 123456 -> 03 00.. 01 e2 40.
  it('writes blue work as its minimal big-endian bytes after a length, none for zero work', () => {
    const base = genesisHeader('simnet');
    const bytes = serializeKaspaHeader({ ...base, blueWork: 123456n });
    // blue work, then the 32-byte pruning point, end the serialization.
    const tail = bytesToHex(bytes.slice(-(8 + 3 + 32), -32));
    expect(tail).toBe('030000000000000001e240');
    const zero = serializeKaspaHeader(base);
    expect(bytesToHex(zero.slice(-(8 + 32), -32))).toBe('0000000000000000');
  });

  it('gives the RPC shape back unchanged in meaning: same hash after a round trip', () => {
    const header = parseRpcBlockHeader(MAINNET_BLOCK.header);
    const rpc = toRpcBlockHeader(header);
    expect(rpc.blueWork).toBe('56217f0bcee1a55ea0424');
    expect(rpc.nonce).toBe('9519250016613520');
    expect(bytesToHex(kaspaBlockHash(parseRpcBlockHeader(rpc)))).toBe(MAINNET_BLOCK.hash);
  });

  it('accepts 64-bit fields as strings, safe numbers or bigints, and refuses anything else', () => {
    const rpc = { ...MAINNET_BLOCK.header };
    expect(parseRpcBlockHeader({ ...rpc, daaScore: 87768050n }).daaScore).toBe(87768050n);
    expect(parseRpcBlockHeader({ ...rpc, nonce: '18446744073709551615' }).nonce).toBe((1n << 64n) - 1n);
    expect(() => parseRpcBlockHeader({ ...rpc, nonce: '18446744073709551616' })).toThrow(/64 bits/);
    expect(() => parseRpcBlockHeader({ ...rpc, nonce: 2 ** 60 })).toThrow(RangeError);
    expect(() => parseRpcBlockHeader({ ...rpc, bits: -1 })).toThrow(RangeError);
    expect(() => parseRpcBlockHeader({ ...rpc, version: 70000 })).toThrow(RangeError);
  });

  it('refuses hashes that are not 32 bytes of hex', () => {
    const rpc = { ...MAINNET_BLOCK.header };
    expect(() => parseRpcBlockHeader({ ...rpc, pruningPoint: 'zz'.repeat(32) })).toThrow(/hex/);
    expect(() => parseRpcBlockHeader({ ...rpc, hashMerkleRoot: 'ab'.repeat(31) })).toThrow(/32 bytes/);
    expect(() => parseRpcBlockHeader({ ...rpc, parents: [{ parentHashes: ['00'] }] })).toThrow(/32 bytes/);
    expect(() => parseRpcBlockHeader({ ...rpc, blueWork: '' })).toThrow(/blueWork/);
  });
});
