import bcoin from 'bcoin';
import { describe, expect, it } from 'vitest';
import {
  MAX_COINBASE_SCRIPT_SIG,
  bip34HeightScript,
  buildCoinbaseParts,
  coinbaseWithWitness,
  encodeVarint,
  pushData,
  scriptNum,
} from './coinbase.js';

describe('BIP34 height in the coinbase', () => {
  it.each([
    [1, '51'],
    [16, '60'],
    [17, '0111'],
    [127, '017f'],
    [128, '028000'],
    [255, '02ff00'],
    [256, '020001'],
    [65535, '03ffff00'],
    [500000, '0320a107'],
    [840000, '0340d10c'],
  ])('encodes height %i as %s', (height, hex) => {
    expect(bip34HeightScript(height).toString('hex')).toBe(hex);
  });

  it('reads back through bcoin for every listed height', () => {
    for (const height of [1, 16, 17, 127, 128, 255, 256, 65535, 500000, 2 ** 31 - 1]) {
      const script = Buffer.concat([bip34HeightScript(height), Buffer.from([0x04, 1, 2, 3, 4])]);
      expect(bcoin.Script.fromRaw(script).getCoinbaseHeight()).toBe(height);
    }
  });

  it('refuses a negative or fractional height', () => {
    expect(() => bip34HeightScript(-1)).toThrow(/height/);
    expect(() => bip34HeightScript(1.5)).toThrow(/height/);
  });
});

describe('script and varint encodings', () => {
  it('encodes CompactSize integers at every boundary', () => {
    expect(encodeVarint(0).toString('hex')).toBe('00');
    expect(encodeVarint(0xfc).toString('hex')).toBe('fc');
    expect(encodeVarint(0xfd).toString('hex')).toBe('fdfd00');
    expect(encodeVarint(0xffff).toString('hex')).toBe('fdffff');
    expect(encodeVarint(0x10000).toString('hex')).toBe('fe00000100');
    expect(encodeVarint(0x100000000).toString('hex')).toBe('ff0000000001000000');
    expect(() => encodeVarint(-1)).toThrow(RangeError);
  });

  it('encodes script numbers with a sign byte when the top bit is set', () => {
    expect(scriptNum(0).toString('hex')).toBe('');
    expect(scriptNum(-1).toString('hex')).toBe('81');
    expect(scriptNum(128).toString('hex')).toBe('8000');
    expect(scriptNum(-128).toString('hex')).toBe('8080');
  });

  it('uses OP_PUSHDATA1 above 75 bytes', () => {
    expect(pushData(Buffer.alloc(75)).subarray(0, 1).toString('hex')).toBe('4b');
    expect(pushData(Buffer.alloc(76)).subarray(0, 2).toString('hex')).toBe('4c4c');
  });
});

describe('coinbase halves', () => {
  const outputs = [
    { value: 5_000_000_000n, script: Buffer.from('0014751e76e8199196d454941c45d1b3a323f1433bd6', 'hex') },
  ];

  it('puts height, pool tag and an extranonce push at the start of the scriptSig', () => {
    const parts = buildCoinbaseParts({
      height: 500000,
      poolTag: '/Manjam/',
      extranonce1Size: 4,
      extranonce2Size: 8,
      outputs,
    });
    // version 2, one input spending nothing
    expect(parts.coinb1.subarray(0, 5).toString('hex')).toBe('0200000001');
    expect(parts.coinb1.subarray(5, 37).equals(Buffer.alloc(32))).toBe(true);
    expect(parts.coinb1.subarray(37, 41).toString('hex')).toBe('ffffffff');
    const scriptSig = parts.coinb1.subarray(42);
    expect(parts.coinb1[41]).toBe(parts.scriptSigLength);
    expect(scriptSig.toString('hex')).toBe(`0320a107082f4d616e6a616d2f0c`);
    expect(parts.scriptSigLength).toBe(scriptSig.length + 12);
    // sequence, one output, lock time 0
    expect(parts.coinb2.subarray(0, 5).toString('hex')).toBe('ffffffff01');
    expect(parts.coinb2.subarray(-4).toString('hex')).toBe('00000000');
  });

  it('parses with bcoin as a coinbase paying the output', () => {
    const parts = buildCoinbaseParts({
      height: 17,
      poolTag: 'x',
      extranonce1Size: 4,
      extranonce2Size: 4,
      outputs,
    });
    const tx = Buffer.concat([parts.coinb1, Buffer.alloc(8, 0xab), parts.coinb2]);
    const header = Buffer.alloc(80);
    header.writeUInt32LE(2, 0); // bcoin reads BIP34 heights from version-2 blocks on
    const block = Buffer.concat([header, Buffer.from([1]), tx]);
    const parsed = bcoin.Block.fromRaw(block);
    expect(parsed.txs[0]!.isCoinbase()).toBe(true);
    expect(parsed.getCoinbaseHeight()).toBe(17);
    expect(parsed.txs[0]!.outputs[0]!.value).toBe(5_000_000_000);
  });

  it('refuses a pool tag that would push the scriptSig past 100 bytes', () => {
    const tooLong = 'M'.repeat(90);
    expect(() =>
      buildCoinbaseParts({
        height: 500000,
        poolTag: tooLong,
        extranonce1Size: 4,
        extranonce2Size: 8,
        outputs,
      }),
    ).toThrow(/limit 100/);
    const fits = 'M'.repeat(MAX_COINBASE_SCRIPT_SIG - 4 - 1 - 1 - 12 - 1);
    expect(
      buildCoinbaseParts({ height: 500000, poolTag: fits, extranonce1Size: 4, extranonce2Size: 8, outputs })
        .scriptSigLength,
    ).toBe(100);
  });

  it('refuses bad extranonce sizes and a coinbase without outputs', () => {
    expect(() =>
      buildCoinbaseParts({ height: 1, poolTag: '', extranonce1Size: 4, extranonce2Size: 0, outputs }),
    ).toThrow(/extranonce/);
    expect(() =>
      buildCoinbaseParts({ height: 1, poolTag: '', extranonce1Size: 4, extranonce2Size: 8, outputs: [] }),
    ).toThrow(/output/);
  });

  it('adds marker, flag and a single 32-byte zero witness for the block', () => {
    const parts = buildCoinbaseParts({
      height: 300,
      poolTag: '',
      extranonce1Size: 4,
      extranonce2Size: 4,
      outputs,
    });
    const plain = Buffer.concat([parts.coinb1, Buffer.alloc(8), parts.coinb2]);
    const withWitness = coinbaseWithWitness(plain);
    expect(withWitness.length).toBe(plain.length + 2 + 1 + 1 + 32);
    expect(withWitness.subarray(4, 6).toString('hex')).toBe('0001');
    expect(withWitness.subarray(-38, -4).toString('hex')).toBe(`0120${'00'.repeat(32)}`);
  });
});
