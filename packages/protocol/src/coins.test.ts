import { describe, expect, it } from 'vitest';
import { addressPrefixes, algorithmOf, blockSubsidy, coinParams, isCoin, isNetwork } from './coins.js';

describe('coin parameters', () => {
  it('mines Bitcoin with sha256d and Litecoin with scrypt', () => {
    expect(algorithmOf('BTC')).toBe('sha256d');
    expect(algorithmOf('LTC')).toBe('scrypt');
    expect(coinParams('LTC', 'mainnet').algorithm).toBe('scrypt');
  });

  it('asks Litecoin nodes for MWEB and segwit templates and Bitcoin nodes for segwit', () => {
    expect(coinParams('LTC', 'regtest').gbtRules).toEqual(['mweb', 'segwit']);
    expect(coinParams('LTC', 'mainnet').mweb).toBe(true);
    expect(coinParams('BTC', 'mainnet').gbtRules).toEqual(['segwit']);
    expect(coinParams('BTC', 'mainnet').mweb).toBe(false);
  });

  it("accepts only bcoin's regtest prefixes for Bitcoin (the dev chain's wallet pays no other)", () => {
    const p = coinParams('BTC', 'regtest');
    expect(p.bech32Hrps).toEqual(['rb']);
    expect(p.pubKeyHashVersions).toEqual([0x3c]);
    expect(p.scriptHashVersions).toEqual([0x26]);
    expect(p.taproot).toBe(false);
    expect(addressPrefixes('BTC', 'regtest')).toEqual({
      bech32Hrps: ['rb'],
      pubKeyHashVersions: [0x3c],
      scriptHashVersions: [0x26],
      taproot: false,
    });
  });

  it('halves the subsidy every 210,000 blocks on Bitcoin and 840,000 on Litecoin', () => {
    const btc = coinParams('BTC', 'mainnet');
    expect(blockSubsidy(btc, 0)).toBe(5_000_000_000n);
    expect(blockSubsidy(btc, 209_999)).toBe(5_000_000_000n);
    expect(blockSubsidy(btc, 210_000)).toBe(2_500_000_000n);
    expect(blockSubsidy(btc, 840_000)).toBe(312_500_000n);
    expect(blockSubsidy(btc, 64 * 210_000)).toBe(0n);
    const ltc = coinParams('LTC', 'mainnet');
    expect(blockSubsidy(ltc, 840_000)).toBe(2_500_000_000n);
    expect(blockSubsidy(ltc, 2_520_000)).toBe(625_000_000n);
  });

  it('halves every 150 blocks on regtest with coinbase maturity 100', () => {
    for (const coin of ['BTC', 'LTC'] as const) {
      const p = coinParams(coin, 'regtest');
      expect(blockSubsidy(p, 149)).toBe(5_000_000_000n);
      expect(blockSubsidy(p, 150)).toBe(2_500_000_000n);
      expect(p.coinbaseMaturity).toBe(100);
    }
  });

  it('refuses a negative height and unknown names', () => {
    expect(() => blockSubsidy(coinParams('BTC', 'mainnet'), -1)).toThrow(/height/);
    expect(isCoin('DOGE')).toBe(false);
    expect(isNetwork('signet')).toBe(false);
    expect(isCoin('LTC') && isNetwork('testnet')).toBe(true);
  });
});
