import { describe, expect, it } from 'vitest';
import { addressToOutputScript } from './address.js';
import { coinParams } from './coins.js';
import { coinbaseOnlyTemplate, jobFromTemplate, type BlockTemplateRpc, type TipHeader } from './template.js';
import { fixtureTemplate } from '../test/test-fixtures.js';

const previous: BlockTemplateRpc = {
  ...fixtureTemplate({ txCount: 5, height: 880_000, subsidy: 312_500_000n, segwit: true, bits: '17034219' })
    .template,
  rules: ['csv', '!segwit', 'taproot'],
};
const tip: TipHeader = {
  hash: 'ab'.repeat(32),
  height: 880_000,
  bits: '17034219',
  mediantime: 1_700_000_000,
};
const BTC = coinParams('BTC', 'mainnet');

describe('coinbaseOnlyTemplate', () => {
  it('builds the next block on the new tip with the coinbase alone, paid the subsidy', () => {
    const tpl = coinbaseOnlyTemplate(previous, tip, BTC, 1_700_000_500);
    expect(tpl).toEqual({
      version: previous.version,
      previousblockhash: tip.hash,
      transactions: [],
      coinbasevalue: 312_500_000,
      bits: '17034219',
      height: 880_001,
      curtime: 1_700_000_500,
      mintime: 1_700_000_001,
      rules: previous.rules,
    });
    const job = jobFromTemplate(tpl as BlockTemplateRpc, BTC, {
      payoutScript: addressToOutputScript('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', BTC),
      poolTag: '/Manjam/',
      extranonce1Size: 4,
      extranonce2Size: 4,
    });
    // No transactions: an empty merkle branch, no witness commitment, no fees.
    expect(job.merkleBranch).toEqual([]);
    expect(job.segwit).toBe(false);
    expect(job.fees).toBe(0n);
    expect(job.height).toBe(880_001);
  });

  it('never dates the block at or below the tip’s median time past', () => {
    expect(coinbaseOnlyTemplate(previous, tip, BTC, 1_600_000_000)?.curtime).toBe(1_700_000_001);
  });

  it('leaves a retarget height to the node on mainnet, not on regtest', () => {
    const before = { ...tip, height: 2016 * 437 - 1 };
    expect(coinbaseOnlyTemplate(previous, before, BTC, 1_700_000_500)).toBeUndefined();
    const regtest = coinParams('BTC', 'regtest');
    expect(coinbaseOnlyTemplate(previous, { ...before, bits: '207fffff' }, regtest, 0)?.bits).toBe(
      '207fffff',
    );
  });

  it('leaves testnet blocks to the node (minimum-difficulty rule)', () => {
    expect(coinbaseOnlyTemplate(previous, tip, coinParams('BTC', 'testnet'), 1_700_000_500)).toBeUndefined();
  });

  it('leaves Litecoin blocks to the node once MWEB is active (the HogEx transaction)', () => {
    const ltc = coinParams('LTC', 'mainnet');
    const mweb = { ...previous, rules: ['csv', '!segwit', 'taproot', '!mweb'], mweb: '0102' };
    expect(coinbaseOnlyTemplate(mweb, tip, ltc, 1_700_000_500)).toBeUndefined();
    expect(coinbaseOnlyTemplate({ ...previous, rules: ['mweb'] }, tip, ltc, 1_700_000_500)).toBeUndefined();
    expect(coinbaseOnlyTemplate(previous, tip, ltc, 1_700_000_500)?.coinbasevalue).toBe(2_500_000_000); // 50 LTC halved once at 840,000
  });
});
