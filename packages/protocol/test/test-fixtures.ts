/** Synthetic but well-formed transactions and block templates for protocol tests. */
import { encodeVarint } from '../src/coinbase.js';
import { sha256d, toRpcHex } from '../src/hash.js';
import { witnessCommitmentScript } from '../src/merkle.js';
import type { BlockTemplateRpc } from '../src/template.js';

export interface FixtureTx {
  raw: Buffer;
  txid: Buffer;
  wtxid: Buffer;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
}

/** A one-input, one-output transaction; with a two-item witness when `witness` is set. */
export function fixtureTx(seed: number, witness: boolean): FixtureTx {
  const prevout = Buffer.concat([sha256d(Buffer.from(`prevout ${seed}`)), u32(seed % 3)]);
  const scriptSig = witness
    ? Buffer.alloc(0)
    : Buffer.concat([Buffer.from([0x47]), Buffer.alloc(0x47, seed & 0xff)]);
  const program = sha256d(Buffer.from(`payee ${seed}`)).subarray(0, 20);
  const output = Buffer.concat([u64(BigInt(10_000 + seed)), Buffer.from([0x16, 0x00, 0x14]), program]);
  const inputs = Buffer.concat([
    encodeVarint(1),
    prevout,
    encodeVarint(scriptSig.length),
    scriptSig,
    u32(0xfffffffe),
  ]);
  const outputs = Buffer.concat([encodeVarint(1), output]);
  const base = Buffer.concat([u32(2), inputs, outputs, u32(0)]);
  if (!witness) return { raw: base, txid: sha256d(base), wtxid: sha256d(base) };
  const items = Buffer.concat([
    encodeVarint(2),
    encodeVarint(71),
    Buffer.alloc(71, (seed + 1) & 0xff),
    encodeVarint(33),
    Buffer.alloc(33, 0x02),
  ]);
  const full = Buffer.concat([u32(2), Buffer.from([0x00, 0x01]), inputs, outputs, items, u32(0)]);
  return { raw: full, txid: sha256d(base), wtxid: sha256d(full) };
}

export interface TemplateFixture {
  template: BlockTemplateRpc;
  txs: FixtureTx[];
}

export function fixtureTemplate(opts: {
  txCount: number;
  height: number;
  subsidy: bigint;
  segwit: boolean;
  mweb?: string;
  bits?: string;
}): TemplateFixture {
  const txs = Array.from({ length: opts.txCount }, (_, i) => fixtureTx(i, opts.segwit && i % 2 === 0));
  const fees = txs.reduce((sum, _tx, i) => sum + 1000n + BigInt(i), 0n);
  const template: BlockTemplateRpc = {
    version: 0x20000000,
    previousblockhash: '00000000000008a3a41b85b8b29ad444def299fee21793cd8b9e567eab02cd81',
    transactions: txs.map((tx, i) => ({
      data: tx.raw.toString('hex'),
      txid: toRpcHex(tx.txid),
      hash: toRpcHex(tx.wtxid),
      fee: 1000 + i,
      weight: tx.raw.length * 4,
    })),
    coinbasevalue: Number(opts.subsidy + fees),
    bits: opts.bits ?? '207fffff',
    height: opts.height,
    curtime: 1_700_000_000,
    mintime: 1_699_999_000,
    rules: opts.segwit ? ['csv', '!segwit'] : ['csv'],
  };
  if (opts.segwit)
    template.default_witness_commitment = witnessCommitmentScript(txs.map((tx) => tx.wtxid)).toString('hex');
  if (opts.mweb !== undefined) template.mweb = opts.mweb;
  return { template, txs };
}
