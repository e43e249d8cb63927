import { describe, expect, it } from 'vitest';
import { addressToOutputScript } from './address.js';
import { coinParams } from './coins.js';
import { bitsToTarget } from './target.js';
import {
  TemplateError,
  jobFromTemplate,
  notifyParams,
  prevHashToStratum,
  type BlockTemplateRpc,
} from './template.js';
import { fixtureTemplate } from '../test/test-fixtures.js';

const BTC = coinParams('BTC', 'regtest');
const OPTS = {
  payoutScript: addressToOutputScript('rb1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy9tyefte', BTC),
  poolTag: '/Manjam/',
  extranonce1Size: 4,
  extranonce2Size: 8,
};

function template(overrides: Partial<BlockTemplateRpc> = {}): BlockTemplateRpc {
  const { template: t } = fixtureTemplate({ txCount: 3, height: 200, subsidy: 2_500_000_000n, segwit: true });
  return { ...t, ...overrides };
}

describe('jobFromTemplate', () => {
  it('reverses the eight 4-byte words of the RPC prevhash for mining.notify', () => {
    expect(prevHashToStratum('00000000000008a3a41b85b8b29ad444def299fee21793cd8b9e567eab02cd81')).toBe(
      'ab02cd818b9e567ee21793cddef299feb29ad444a41b85b8000008a300000000',
    );
  });

  it('fills mining.notify with exact-width hex fields', () => {
    const job = jobFromTemplate(template(), BTC, OPTS);
    const params = notifyParams(job, 'a1', true);
    const [jobId, prevhash, coinb1, coinb2, branch, version, nbits, ntime, clean] = params;
    expect(jobId).toBe('a1');
    expect(prevhash).toMatch(/^[0-9a-f]{64}$/);
    expect(coinb1).toBe(job.coinb1.toString('hex'));
    expect(coinb2).toBe(job.coinb2.toString('hex'));
    expect(branch).toHaveLength(2);
    for (const step of branch) expect(step).toMatch(/^[0-9a-f]{64}$/);
    expect(version).toBe('20000000');
    expect(nbits).toBe('207fffff');
    expect(ntime).toBe((1_700_000_000).toString(16).padStart(8, '0'));
    expect(clean).toBe(true);
  });

  it('splits the coinbase value into subsidy and fees and keeps the network target', () => {
    const job = jobFromTemplate(template(), BTC, OPTS);
    expect(job.subsidy).toBe(2_500_000_000n);
    expect(job.fees).toBe(1000n + 1001n + 1002n);
    expect(job.coinbaseValue).toBe(job.subsidy + job.fees);
    expect(job.networkTarget).toBe(bitsToTarget('207fffff'));
    expect(job.mintime).toBe(1_699_999_000);
    expect(job.segwit).toBe(true);
    expect(job.mweb).toBeUndefined();
    expect(job.transactions).toHaveLength(3);
  });

  it('pays the whole coinbase value to the payout script and commits to the witnesses', () => {
    const tpl = template();
    const job = jobFromTemplate(tpl, BTC, OPTS);
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE(job.coinbaseValue);
    const payout = Buffer.concat([value, Buffer.from([OPTS.payoutScript.length]), OPTS.payoutScript]);
    expect(job.coinb2.includes(payout)).toBe(true);
    expect(job.coinb2.toString('hex')).toContain(`0000000000000000${'26'}${tpl.default_witness_commitment!}`);
  });

  it('takes mintime from curtime when the node sends none', () => {
    const job = jobFromTemplate(template({ mintime: undefined }), BTC, OPTS);
    expect(job.mintime).toBe(job.curtime);
  });

  it.each<[string, Partial<BlockTemplateRpc>, RegExp]>([
    ['a short prevhash', { previousblockhash: 'abcd' }, /previousblockhash/],
    ['bits that are not 8 hex digits', { bits: '1d00ff' }, /bits/],
    ['height 0', { height: 0 }, /height/],
    ['a fractional coinbase value', { coinbasevalue: 1.5 }, /coinbasevalue/],
    [
      'non-hex transaction data',
      { transactions: [{ data: 'zz', hash: 'ab'.repeat(32) }] },
      /transaction #0 data/,
    ],
    ['a missing txid', { transactions: [{ data: '00', hash: 'nope' }] }, /transaction #0 txid/],
    ['a bogus witness commitment', { default_witness_commitment: '6a' }, /default_witness_commitment/],
    ['a coinbase value below the subsidy', { coinbasevalue: 1 }, /below .* subsidy/],
    ['MWEB data from a Bitcoin node', { mweb: 'ab' }, /MWEB/],
  ])('refuses a template with %s', (_name, overrides, message) => {
    expect(() => jobFromTemplate(template(overrides), BTC, OPTS)).toThrow(TemplateError);
    expect(() => jobFromTemplate(template(overrides), BTC, OPTS)).toThrow(message);
  });

  it('accepts MWEB data from a Litecoin node', () => {
    const ltc = coinParams('LTC', 'regtest');
    const job = jobFromTemplate(template({ mweb: 'AB01' }), ltc, {
      ...OPTS,
      payoutScript: addressToOutputScript('rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3', ltc),
    });
    expect(job.mweb).toBe('ab01');
  });
});
