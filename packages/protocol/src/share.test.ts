import bcoin from 'bcoin';
import { describe, expect, it } from 'vitest';
import { addressToOutputScript } from './address.js';
import { blockHashHex, serializeBlock } from './block.js';
import { coinParams, type CoinParams } from './coins.js';
import { fromRpcHex, sha256d, toRpcHex } from './hash.js';
import { merkleBranch, merkleRoot } from './merkle.js';
import { buildShare, type BuiltShare } from './share.js';
import { bitsToTarget } from './target.js';
import { jobFromTemplate, notifyParams, prevHashToStratum, type JobTemplate } from './template.js';
import { fixtureTemplate } from '../test/test-fixtures.js';

const BTC_REGTEST = coinParams('BTC', 'regtest');
const LTC_REGTEST = coinParams('LTC', 'regtest');
const HEIGHT = 200; // regtest: subsidy halved once (25 coins)
const SUBSIDY = 2_500_000_000n;
const EN1 = Buffer.from('f000000d', 'hex');

function job(params: CoinParams, txCount: number, extra: { segwit?: boolean; mweb?: string } = {}) {
  const fixture = fixtureTemplate({
    txCount,
    height: HEIGHT,
    subsidy: SUBSIDY,
    segwit: extra.segwit ?? true,
    ...extra,
  });
  const payout =
    params.coin === 'BTC'
      ? 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn'
      : 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';
  const j = jobFromTemplate(fixture.template, params, {
    payoutScript: addressToOutputScript(payout, params),
    poolTag: '/Manjam/',
    extranonce1Size: 4,
    extranonce2Size: 8,
  });
  return { job: j, ...fixture };
}

function share(j: JobTemplate, nonce = 0, en2 = '0000000000000001'): BuiltShare {
  return buildShare(j, 'sha256d', {
    extranonce1: EN1,
    extranonce2: Buffer.from(en2, 'hex'),
    ntime: j.curtime,
    nonce,
    version: j.version,
  });
}

/** Tiny block parser: enough to check the tx count, the coinbase witness and an MWEB tail. */
function parseBlock(raw: Buffer) {
  let pos = 80;
  const varint = (): number => {
    const first = raw[pos++]!;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    const value = Number(raw.readUIntLE(pos, Math.min(size, 6)));
    pos += size;
    return value;
  };
  const skip = (n: number) => {
    pos += n;
  };
  const txCount = varint();
  const witnesses: Buffer[][][] = [];
  for (let t = 0; t < txCount; t++) {
    skip(4);
    const segwit = raw[pos] === 0 && raw[pos + 1] === 1;
    if (segwit) skip(2);
    const inputs = varint();
    for (let i = 0; i < inputs; i++) {
      skip(36);
      skip(varint());
      skip(4);
    }
    const outputs = varint();
    for (let o = 0; o < outputs; o++) {
      skip(8);
      skip(varint());
    }
    const txWitness: Buffer[][] = [];
    if (segwit) {
      for (let i = 0; i < inputs; i++) {
        const items: Buffer[] = [];
        const n = varint();
        for (let k = 0; k < n; k++) {
          const len = varint();
          items.push(raw.subarray(pos, pos + len));
          skip(len);
        }
        txWitness.push(items);
      }
    }
    witnesses.push(txWitness);
    skip(4);
  }
  return { txCount, witnesses, tail: raw.subarray(pos) };
}

describe('jobs, shares and blocks round trip', () => {
  it.each([0, 1, 2, 3, 7, 64, 300])(
    'rebuilds the merkle root of all txids for a template with %i transactions',
    (n) => {
      const { job: j, txs } = job(BTC_REGTEST, n);
      const s = share(j, 12345);
      const expected = merkleRoot([sha256d(s.coinbase), ...txs.map((tx) => tx.txid)]);
      expect(s.header.subarray(36, 68).equals(expected)).toBe(true);
      const parsed = parseBlock(serializeBlock(j, s));
      expect(parsed.txCount).toBe(n + 1);
      expect(parsed.witnesses[0]).toEqual([[Buffer.alloc(32)]]);
      expect(parsed.tail.length).toBe(0);
    },
  );

  it.each([0, 1, 9])(
    'serializes a block with %i transactions that bcoin accepts (merkle root, witness commitment, BIP34)',
    (n) => {
      const { job: j, txs } = job(BTC_REGTEST, n);
      const s = share(j, 7);
      const block = bcoin.Block.fromRaw(serializeBlock(j, s));
      expect(block.txs).toHaveLength(n + 1);
      expect(block.txs[0]!.isCoinbase()).toBe(true);
      expect(block.txs[0]!.hasWitness()).toBe(true);
      expect(block.createMerkleRoot('hex')).toBe(block.merkleRoot);
      expect(block.checkBody()).toEqual([true, 'valid', 0]);
      expect(block.getCommitmentHash('hex')).toBe(block.createCommitmentHash('hex'));
      expect(block.getCoinbaseHeight()).toBe(HEIGHT);
      expect(block.rhash()).toBe(blockHashHex(s.header));
      expect(block.txs.slice(1).map((tx) => tx.txid())).toEqual(txs.map((tx) => toRpcHex(tx.txid)));
      expect(block.txs[0]!.outputs[0]!.value).toBe(Number(j.coinbaseValue));
    },
  );

  it('finds a share under the regtest network target that bcoin agrees is valid proof of work', () => {
    const { job: j } = job(BTC_REGTEST, 5);
    let found: BuiltShare | undefined;
    for (let nonce = 0; nonce < 64 && !found; nonce++) {
      const s = share(j, nonce);
      if (s.hashValue <= j.networkTarget) found = s;
    }
    expect(found).toBeDefined();
    const block = bcoin.Block.fromRaw(serializeBlock(j, found!));
    expect(block.verifyPOW()).toBe(true);
    expect(toRpcHex(found!.hash)).toBe(blockHashHex(found!.header));
  });

  it('serializes a non-segwit template without marker, flag or witness', () => {
    const { job: j } = job(BTC_REGTEST, 3, { segwit: false });
    const s = share(j);
    const raw = serializeBlock(j, s);
    const parsed = parseBlock(raw);
    expect(parsed.witnesses[0]).toEqual([]);
    expect(raw.subarray(81).equals(Buffer.concat([s.coinbase, raw.subarray(81 + s.coinbase.length)]))).toBe(
      true,
    );
    expect(bcoin.Block.fromRaw(raw).checkBody()[0]).toBe(true);
  });

  it('appends 0x01 and the mweb data after the transactions of an MWEB block', () => {
    const mweb = 'ab'.repeat(40);
    const { job: j } = job(LTC_REGTEST, 4, { mweb });
    const s = buildShare(j, 'scrypt', {
      extranonce1: EN1,
      extranonce2: Buffer.alloc(8),
      ntime: j.curtime,
      nonce: 1,
      version: j.version,
    });
    const parsed = parseBlock(serializeBlock(j, s));
    expect(parsed.txCount).toBe(5);
    expect(parsed.tail.toString('hex')).toBe(`01${mweb}`);
  });

  it('gives a different coinbase and hash for each extranonce2 and nonce', () => {
    const { job: j } = job(BTC_REGTEST, 10);
    const a = share(j, 1, '0000000000000001');
    const b = share(j, 1, '0000000000000002');
    const c = share(j, 2, '0000000000000001');
    expect(a.coinbase.equals(b.coinbase)).toBe(false);
    expect(new Set([a, b, c].map((s) => s.hash.toString('hex'))).size).toBe(3);
  });

  it('reproduces the header a miner builds from mining.notify (cgminer byte order)', () => {
    const { job: j } = job(BTC_REGTEST, 20);
    const [, prevhash, coinb1, coinb2, branch, version, nbits, ntime] = notifyParams(j, 'j1', true);
    const en2 = '00000000000000ff';
    const nonceHex = '1a2b3c4d';
    // What a miner does: coinbase -> sha256d -> fold the branch, then write the header as
    // big-endian words and swap every 4-byte word before hashing.
    let root = sha256d(Buffer.from(coinb1 + EN1.toString('hex') + en2 + coinb2, 'hex'));
    for (const step of branch) root = sha256d(Buffer.concat([root, Buffer.from(step, 'hex')]));
    const rootWordsBE = Buffer.from(root).swap32();
    const data = Buffer.from(
      version + prevhash + rootWordsBE.toString('hex') + ntime + nbits + nonceHex,
      'hex',
    );
    const minerHeader = Buffer.from(data).swap32();
    const ours = buildShare(j, 'sha256d', {
      extranonce1: EN1,
      extranonce2: Buffer.from(en2, 'hex'),
      ntime: Number.parseInt(ntime, 16),
      nonce: Number.parseInt(nonceHex, 16),
      version: Number.parseInt(version, 16),
    });
    expect(ours.header.toString('hex')).toBe(minerHeader.toString('hex'));
  });

  it('refuses extranonces of the wrong size and out-of-range header fields', () => {
    const { job: j } = job(BTC_REGTEST, 1);
    const base = {
      extranonce1: EN1,
      extranonce2: Buffer.alloc(8),
      ntime: j.curtime,
      nonce: 0,
      version: j.version,
    };
    expect(() => buildShare(j, 'sha256d', { ...base, extranonce2: Buffer.alloc(7) })).toThrow(
      /extranonce2 must be 8 bytes/,
    );
    expect(() => buildShare(j, 'sha256d', { ...base, extranonce1: Buffer.alloc(3) })).toThrow(
      /extranonce1 must be 4 bytes/,
    );
    expect(() => buildShare(j, 'sha256d', { ...base, nonce: 2 ** 32 })).toThrow(/nonce/);
    expect(() => buildShare(j, 'sha256d', { ...base, ntime: -1 })).toThrow(/ntime/);
  });

  it('uses the real prevhash in the header (internal order)', () => {
    const { job: j } = job(BTC_REGTEST, 0);
    expect(share(j).header.subarray(4, 36).equals(fromRpcHex(j.prevHashRpc))).toBe(true);
  });
});

describe('replaying a real block as a miner submission', () => {
  // Bitcoin block 100000: its coinbase, the other three txids, and its header fields.
  const COINBASE =
    '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff08044c86041b020602ffffffff0100f2052a010000004341041b0e8c2567c12536aa13357b79a073dc4444acb83c4ec7a0e2f99dd7457516c5817242da796924ca4e99947d087fedf9ce467cb9f7c6287078f801df276fdf84ac00000000';
  const OTHER_TXIDS = [
    'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
    '6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4',
    'e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d',
  ];
  const PREV = '000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250';

  it('rebuilds block 100000 and its hash from coinbase halves, extranonces and the branch', () => {
    const raw = Buffer.from(COINBASE, 'hex');
    // Cut the scriptSig (044c86041b020602) as if 4c86041b were extranonce1 and 020602 extranonce2.
    const job: JobTemplate = {
      height: 100000,
      prevHashRpc: PREV,
      prevHashStratum: prevHashToStratum(PREV),
      version: 1,
      bits: '1b04864c',
      curtime: 1293623863,
      mintime: 1293623863,
      networkTarget: bitsToTarget('1b04864c'),
      coinbaseValue: 5_000_000_000n,
      fees: 0n,
      subsidy: 5_000_000_000n,
      coinb1: raw.subarray(0, 43),
      coinb2: raw.subarray(50),
      extranonce1Size: 4,
      extranonce2Size: 3,
      merkleBranch: merkleBranch(OTHER_TXIDS.map(fromRpcHex)),
      transactions: [],
      segwit: false,
      mweb: undefined,
    };
    const share = buildShare(job, 'sha256d', {
      extranonce1: raw.subarray(43, 47),
      extranonce2: raw.subarray(47, 50),
      ntime: 1293623863,
      nonce: 274148111,
      version: 1,
    });
    expect(toRpcHex(sha256d(share.coinbase))).toBe(
      '8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87',
    );
    expect(toRpcHex(share.header.subarray(36, 68))).toBe(
      'f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766',
    );
    expect(toRpcHex(share.hash)).toBe('000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506');
    expect(share.hashValue <= job.networkTarget).toBe(true);
  });
});
