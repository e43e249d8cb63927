import bcoin from 'bcoin';
import { describe, expect, it } from 'vitest';
import { blockHashHex, serializeHeader } from './block.js';
import { fromRpcHex, powHash, scryptPow, sha256d, toRpcHex } from './hash.js';
import { hashToBigInt, bitsToTarget } from './target.js';

interface HeaderVector {
  name: string;
  version: number;
  prev: string;
  merkle: string;
  time: number;
  bits: string;
  nonce: number;
  hash: string;
}

const GENESIS: HeaderVector = {
  name: 'Bitcoin genesis block',
  version: 1,
  prev: '0'.repeat(64),
  merkle: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
  time: 1231006505,
  bits: '1d00ffff',
  nonce: 2083236893,
  hash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
};

const BITCOIN_HEADERS: HeaderVector[] = [
  GENESIS,
  {
    name: 'Bitcoin block 100000',
    version: 1,
    prev: '000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250',
    merkle: 'f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766',
    time: 1293623863,
    bits: '1b04864c',
    nonce: 274148111,
    hash: '000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506',
  },
  {
    name: 'Bitcoin block 125552',
    version: 1,
    prev: '00000000000008a3a41b85b8b29ad444def299fee21793cd8b9e567eab02cd81',
    merkle: '2b12fcf1b09288fcaff797d71e950e71ae42b91e8bdb2304758dfcffc2b620e3',
    time: 1305998791,
    bits: '1a44b9f2',
    nonce: 2504433986,
    hash: '00000000000000001e8d6829a8a21adc5d38d0a473b144b6765798e61f98bd1d',
  },
];

function header(v: HeaderVector): Buffer {
  return serializeHeader({
    version: v.version,
    prevHash: fromRpcHex(v.prev),
    merkleRoot: fromRpcHex(v.merkle),
    time: v.time,
    bits: v.bits,
    nonce: v.nonce,
  });
}

describe('block headers and proof of work', () => {
  it.each(BITCOIN_HEADERS)('hashes the $name header to its real block hash', (v) => {
    const h = header(v);
    expect(blockHashHex(h)).toBe(v.hash);
    const pow = powHash('sha256d', h);
    expect(toRpcHex(pow)).toBe(v.hash);
    expect(hashToBigInt(pow) <= bitsToTarget(v.bits)).toBe(true);
  });

  it('serializes the genesis header exactly as in the genesis block bcoin ships', () => {
    const raw = Buffer.from(bcoin.networks['main']!.genesisBlock, 'hex');
    expect(header(GENESIS).equals(raw.subarray(0, 80))).toBe(true);
  });

  it('hashes the Litecoin genesis header with scrypt to 0000050c34a6... under its target', () => {
    const h = serializeHeader({
      version: 1,
      prevHash: Buffer.alloc(32),
      merkleRoot: fromRpcHex('97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9'),
      time: 1317972665,
      bits: '1e0ffff0',
      nonce: 2084524493,
    });
    const pow = scryptPow(h);
    expect(toRpcHex(pow).startsWith('0000050c34a6')).toBe(true);
    expect(hashToBigInt(pow) <= bitsToTarget('1e0ffff0')).toBe(true);
    expect(blockHashHex(h)).toBe('12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2');
  });

  // Real Litecoin mainnet headers with their scrypt hashes (Litecoin Core scrypt_tests.cpp and
  // the Litecoin wiki's block 29255 example).
  it.each([
    [
      '020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659',
      '00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806',
    ],
    [
      '0200000011503ee6a855e900c00cfdd98f5f55fffeaee9b6bf55bea9b852d9de2ce35828e204eef76acfd36949ae56d1fbe81c1ac9c0209e6331ad56414f9072506a77f8c6faf551eac7471b00389d01',
      '00000000003a0d11bdd5eb634e08b7feddcfbbf228ed35d250daf19f1c88fc94',
    ],
    [
      '01000000f615f7ce3b4fc6b8f61e8f89aedb1d0852507650533a9e3b10b9bbcc30639f279fcaa86746e1ef52d3edb3c4ad8259920d509bd073605c9bf1d59983752a6b06b817bb4ea78e011d012d59d4',
      '0000000110c8357966576df46f3b802ca897deb7ad18b12f1c24ecff6386ebd9',
    ],
  ])('hashes the real Litecoin header %s with scrypt to %s', (headerHex, powHex) => {
    const h = Buffer.from(headerHex, 'hex');
    expect(toRpcHex(powHash('scrypt', h))).toBe(powHex);
    const bits = h.readUInt32LE(72);
    expect(hashToBigInt(powHash('scrypt', h)) <= bitsToTarget(bits)).toBe(true);
  });

  it('gives Litecoin block 29255 its real block hash (double SHA-256, not scrypt)', () => {
    const h = Buffer.from(
      '01000000f615f7ce3b4fc6b8f61e8f89aedb1d0852507650533a9e3b10b9bbcc30639f279fcaa86746e1ef52d3edb3c4ad8259920d509bd073605c9bf1d59983752a6b06b817bb4ea78e011d012d59d4',
      'hex',
    );
    expect(blockHashHex(h)).toBe('adf6e2e56df692822f5e064a8b6404a05d67cccd64bc90f57f65b46805e9a54b');
  });

  it('refuses a header that is not 80 bytes', () => {
    expect(() => powHash('sha256d', Buffer.alloc(79))).toThrow(/80 bytes/);
    expect(() => scryptPow(Buffer.alloc(81))).toThrow(/80 bytes/);
    expect(() => blockHashHex(Buffer.alloc(0))).toThrow(/80 bytes/);
  });

  it('converts between RPC hex and internal byte order', () => {
    const internal = fromRpcHex(GENESIS.hash);
    expect(internal[31]).toBe(0);
    expect(internal[0]).toBe(0x6f);
    expect(toRpcHex(internal)).toBe(GENESIS.hash);
    expect(() => fromRpcHex('abc')).toThrow(/64-hex-digit/);
    expect(sha256d(Buffer.alloc(0)).toString('hex')).toBe(
      '5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456',
    );
  });
});
