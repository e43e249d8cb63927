import { describe, expect, it } from 'vitest';
import {
  decodeVarint,
  encodeMoneroAddress,
  encodeVarint,
  isMoneroAddress,
  keccak256,
  moneroBase58Decode,
  moneroBlockId,
  moneroDifficultyToTarget,
  moneroHashDifficulty,
  moneroHashingBlob,
  moneroHashMeetsDifficulty,
  moneroMinerTxHash,
  moneroTargetToDifficulty,
  parseMoneroAddress,
  parseMoneroBlock,
  randomxSeedHeight,
  treeHash,
  withMoneroNonce,
  writeMoneroExtraNonce,
} from './index.js';
import { ADDRESSES, BLOCK_111, TEMPLATE_NO_TX, TEMPLATE_THREE_TX } from '../../test/monero/test-fixtures.js';

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

describe('varint', () => {
  it('round-trips and matches known encodings', () => {
    expect(hex(encodeVarint(0))).toBe('00');
    expect(hex(encodeVarint(127))).toBe('7f');
    expect(hex(encodeVarint(128))).toBe('8001');
    expect(hex(encodeVarint(300))).toBe('ac02');
    for (const value of [0n, 1n, 127n, 128n, 16383n, 16384n, 1795622733n, 2n ** 63n - 1n]) {
      expect(decodeVarint(encodeVarint(value), 0)).toEqual({ value, next: encodeVarint(value).length });
    }
  });

  it('rejects truncated and non-canonical varints', () => {
    expect(() => decodeVarint(bytes('80'), 0)).toThrow(/past the end/);
    expect(() => decodeVarint(bytes('8000'), 0)).toThrow(/non-canonical/);
  });
});

describe('Keccak-256 (cn_fast_hash)', () => {
  // monero-project/monero tests/hash/tests-fast.txt
  it('uses the original Keccak padding', () => {
    expect(hex(keccak256(new Uint8Array(0)))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(hex(keccak256(bytes('cc')))).toBe(
      'eead6dbfc7340a56caedc044696a168870549a6a7f6f56961e84a54bd9970b8a',
    );
    expect(hex(keccak256(bytes('41fb')))).toBe(
      'a8eaceda4d47b3281a795ad9e1ea2122b407baf9aabcb9e18b5717b7873537d2',
    );
    expect(hex(keccak256(bytes('c1ec'), bytes('fdfc')))).toBe(
      'b149e766d7612eaf7d55f74e1a4fdd63709a8115b14f61fcd22aa4abc8b8e122',
    );
  });
});

describe('tree hash', () => {
  // monero-project/monero tests/hash/tests-tree.txt, the cases with 1 to 5 leaves
  const CASES = [
    [
      '676567f8b1b470207c20d8efbaacfa64b2753301b46139562111636f36304bb8',
      '676567f8b1b470207c20d8efbaacfa64b2753301b46139562111636f36304bb8',
    ],
    [
      '5077570fed2363a14fa978218185b914059e23517faf366f08a87cf3c47fd58e',
      '3124758667bc8e76e25403eee75a1044175d58fcd3b984e0745d0ab18f473984975ce54240407d80eedba2b395bcad5be99b5c920abc2423865e3066edd4847a',
    ],
    [
      'f8e26aaa7c36523cea4c5202f2df159c62bf70d10670c96aed516dbfd5cb5227',
      'decc1e0aa505d7d5fbe8ed823d7f5da55307c4cc7008e306da82dbce492a0576dbcf0c26646d36b36a92408941f5f2539f7715bcb1e2b1309cedb86ae4211554f56f5e6b2fce16536e44c851d473d1f994793873996ba448dd59b3b4b922b183',
    ],
    [
      '45f6e06fc0263e667caddd8fba84c9fb723a961a01a5b115f7cab7fe8f2c7e44',
      '53edbbf98d3fa50a85fd2d46c42502aafad3fea30bc25ba4f16ec8bf4a475c4d87da8ad3e5c90aae0b10a559a77a0985608eaa3cc3dd338239be52572c3bdf4ba403d27466991997b3cf4e8d238d002a1451ccc9c4790269d0f0085d9382d60fef37717f59726e4cc8787d5d2d75238ba9adb9627a8f4aeeec8d80465ed3f5fb',
    ],
    [
      'e678fb87749ec082a9f92537716de8e19d8bd5bc4c4d832bd3fcfd42498dac83',
      '051a082e670c688e6a0fc2c8fd5b66b7a23cd380c7c49bd0cfffb0e80fb8c2334bb717c5e90db0ac353dfc0750c8b43a07edae0be99d6e820acc6da9f113123ae084c38ccdbf9c6730e228b5d98e7beb9843cfb523747cc32f09f2b16def67f76765cee044883827b9af31c179d3135b16c30f04453943d9676a59b907a6439658f6c98159b8fa1b152f1bcf748740754ca31c918501dbd577faf602c641df59',
    ],
  ] as const;

  it.each(CASES)('root %s', (root, leaves) => {
    const list = (leaves.match(/.{64}/g) ?? []).map(bytes);
    expect(hex(treeHash(list))).toBe(root);
  });
});

describe('block templates from monerod', () => {
  it('builds the same hashing blob as monerod for a template with only the miner transaction', () => {
    const blob = bytes(TEMPLATE_NO_TX.blocktemplateBlob);
    const block = parseMoneroBlock(blob);
    expect(block.header.majorVersion).toBe(16);
    expect(block.header.nonceOffset).toBe(39);
    expect(block.height).toBe(BigInt(TEMPLATE_NO_TX.height));
    expect(block.txHashes).toEqual([]);
    expect(TEMPLATE_NO_TX.reservedOffset).toBeGreaterThanOrEqual(block.extraStart);
    expect(hex(moneroHashingBlob(blob))).toBe(TEMPLATE_NO_TX.blockhashingBlob);
  });

  it('builds the same hashing blob as monerod for a template with three transactions', () => {
    const blob = bytes(TEMPLATE_THREE_TX.blocktemplateBlob);
    expect(parseMoneroBlock(blob).txHashes).toHaveLength(3);
    expect(hex(moneroHashingBlob(blob))).toBe(TEMPLATE_THREE_TX.blockhashingBlob);
  });

  it('changes the hashing blob (and only the tree root) when an extra nonce is written', () => {
    const blob = bytes(TEMPLATE_THREE_TX.blocktemplateBlob);
    const { reservedOffset, reserveSize } = TEMPLATE_THREE_TX;
    const nonced = writeMoneroExtraNonce(blob, reservedOffset, reserveSize, bytes('0102030405060708'));
    expect(hex(nonced.subarray(reservedOffset, reservedOffset + 8))).toBe('0102030405060708');
    expect(nonced.length).toBe(blob.length);
    const before = moneroHashingBlob(blob);
    const after = moneroHashingBlob(nonced);
    expect(hex(after.subarray(0, 43))).toBe(hex(before.subarray(0, 43)));
    expect(hex(after.subarray(43, 75))).not.toBe(hex(before.subarray(43, 75)));
    expect(hex(after.subarray(75))).toBe('04');
    expect(() => writeMoneroExtraNonce(blob, reservedOffset, reserveSize, new Uint8Array(9))).toThrow(
      /exceeds/,
    );
    expect(() => writeMoneroExtraNonce(blob, 10, 8, new Uint8Array(8))).toThrow(/not inside/);
  });

  it('hashes the miner transaction and the block id as monerod does (a mined block)', () => {
    const blob = bytes(BLOCK_111.blob);
    const block = parseMoneroBlock(blob);
    expect(hex(moneroMinerTxHash(blob, block))).toBe(BLOCK_111.minerTxHash);
    expect(block.txHashes.map(hex)).toEqual(BLOCK_111.txHashes);
    expect(hex(moneroBlockId(moneroHashingBlob(blob, block)))).toBe(BLOCK_111.hash);
  });

  it('writes the nonce little-endian at the nonce offset', () => {
    const hashing = bytes(TEMPLATE_NO_TX.blockhashingBlob);
    const nonced = withMoneroNonce(hashing, 39, 0x12345678);
    expect(hex(nonced.subarray(39, 43))).toBe('78563412');
    expect(
      parseMoneroBlock(withMoneroNonce(bytes(TEMPLATE_NO_TX.blocktemplateBlob), 39, 7)).header.nonce,
    ).toBe(7);
  });

  it('rejects truncated and trailing bytes', () => {
    const blob = bytes(TEMPLATE_NO_TX.blocktemplateBlob);
    expect(() => parseMoneroBlock(blob.subarray(0, 60))).toThrow(RangeError);
    expect(() => parseMoneroBlock(Uint8Array.from([...blob, 0]))).toThrow(/after the transaction hashes/);
  });

  it('finds the RandomX seed height as monerod does', () => {
    expect(randomxSeedHeight(1)).toBe(0);
    expect(randomxSeedHeight(2048 + 64)).toBe(0);
    expect(randomxSeedHeight(2048 + 65)).toBe(2048);
    expect(randomxSeedHeight(4096 + 64)).toBe(2048);
    expect(randomxSeedHeight(4096 + 65)).toBe(4096);
  });
});

describe('difficulty and Stratum targets', () => {
  it('gives miners the compact 4-byte target up to 2^24 and 8 bytes above', () => {
    expect(moneroDifficultyToTarget(1n)).toBe('ffffffff');
    expect(moneroDifficultyToTarget(1000n)).toBe('37894100');
    expect(moneroDifficultyToTarget(2n ** 24n)).toBe('ff000000');
    expect(moneroDifficultyToTarget(2n ** 24n + 1n)).toHaveLength(16);
    expect(moneroDifficultyToTarget(2n ** 32n)).toBe('ffffffff00000000');
  });

  it('reads a target back to the difficulty the miner works to', () => {
    for (const difficulty of [1n, 2n, 1000n, 5000n, 120001n, 2n ** 31n, 2n ** 40n, 300_000_000_000n]) {
      const back = moneroTargetToDifficulty(moneroDifficultyToTarget(difficulty));
      expect(back).toBeGreaterThanOrEqual(difficulty);
      expect(Number(back - difficulty) / Number(difficulty)).toBeLessThan(0.01);
    }
    expect(() => moneroTargetToDifficulty('xyz')).toThrow(RangeError);
    expect(() => moneroTargetToDifficulty('00000000')).toThrow(RangeError);
  });

  it('checks a hash as monerod does (little-endian 256-bit number × difficulty < 2^256)', () => {
    // The last byte is the most significant: 0x01 there is 2^248; 2^248 × 255 < 2^256 passes,
    // 2^248 × 256 = 2^256 does not.
    const hash = new Uint8Array(32);
    hash[31] = 0x01;
    expect(moneroHashMeetsDifficulty(hash, 255n)).toBe(true);
    expect(moneroHashMeetsDifficulty(hash, 256n)).toBe(false);
    expect(moneroHashDifficulty(hash)).toBe(255n);
    const powHash = bytes(BLOCK_111.powHash);
    expect(moneroHashMeetsDifficulty(powHash, 1n)).toBe(true);
    expect(moneroHashMeetsDifficulty(powHash, moneroHashDifficulty(powHash))).toBe(true);
    expect(moneroHashMeetsDifficulty(powHash, moneroHashDifficulty(powHash) + 1n)).toBe(false);
  });
});

describe('addresses', () => {
  for (const network of ['mainnet', 'testnet', 'stagenet'] as const) {
    const set = ADDRESSES[network];
    it(`accepts ${network} standard, subaddress and integrated addresses from monero-wallet-rpc`, () => {
      const standard = parseMoneroAddress(set.standard);
      expect(standard).toMatchObject({ network, kind: 'standard' });
      expect(parseMoneroAddress(set.subaddress)).toMatchObject({ network, kind: 'subaddress' });
      const integrated = parseMoneroAddress(set.integrated);
      expect(integrated).toMatchObject({ network, kind: 'integrated' });
      expect(hex(integrated?.paymentId ?? new Uint8Array(0))).toBe(set.paymentId);
      // An integrated address carries the same keys as its standard address.
      expect(hex(integrated?.spendKey ?? new Uint8Array(0))).toBe(
        hex(standard?.spendKey ?? new Uint8Array(1)),
      );
      expect(isMoneroAddress(set.standard, network)).toBe(true);
      expect(isMoneroAddress(set.standard, network === 'mainnet' ? 'testnet' : 'mainnet')).toBe(false);
      expect(isMoneroAddress(set.integrated, network, ['standard', 'subaddress'])).toBe(false);
      for (const text of [set.standard, set.subaddress, set.integrated]) {
        const parsed = parseMoneroAddress(text);
        expect(parsed && encodeMoneroAddress(parsed)).toBe(text);
      }
    });
  }

  it('rejects a changed character, a cut address and other coins', () => {
    const good = ADDRESSES.mainnet.standard;
    const flipped = good.slice(0, 40) + (good[40] === 'A' ? 'B' : 'A') + good.slice(41);
    expect(parseMoneroAddress(flipped)).toBeUndefined();
    expect(parseMoneroAddress(good.slice(0, 94))).toBeUndefined();
    expect(parseMoneroAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeUndefined();
    expect(parseMoneroAddress('')).toBeUndefined();
    expect(moneroBase58Decode('0OIl')).toBeUndefined();
  });
});
