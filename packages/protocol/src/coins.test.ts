import { describe, expect, it } from 'vitest';
import { isPayableAddress } from './address.js';
import {
  addressPrefixes,
  algorithmOf,
  BITCOIN_FAMILY_COINS,
  blockSubsidy,
  coinbaseMaturityOf,
  coinParams,
  COINS,
  isBitcoinFamily,
  isCoin,
  isNetwork,
} from './coins.js';
import { decimalsOf, formatCoinAmount } from './money.js';
import { ADDRESSES } from '../test/monero/test-fixtures.js';
import { expectedHashesPerShare, MIN_SHARE_DIFFICULTY } from './target.js';

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

describe('XMR among the pool coins', () => {
  it('is mined with RandomX, matures after 60 blocks and counts 12 decimals', () => {
    expect(COINS).toContain('XMR');
    expect(algorithmOf('XMR')).toBe('randomx');
    expect(coinbaseMaturityOf('XMR')).toBe(60);
    expect(coinbaseMaturityOf('BTC')).toBe(100);
    expect(decimalsOf('XMR')).toBe(12);
    expect(formatCoinAmount(1_234_500_000_000n, 'XMR')).toBe('1.2345 XMR');
    expect(isBitcoinFamily('XMR')).toBe(false);
    expect(BITCOIN_FAMILY_COINS).toEqual(['BTC', 'LTC']);
  });

  it('pays Monero standard, integrated and subaddresses of its network only (regtest uses mainnet prefixes)', () => {
    for (const address of [
      ADDRESSES.mainnet.standard,
      ADDRESSES.mainnet.integrated,
      ADDRESSES.mainnet.subaddress,
    ]) {
      expect(isPayableAddress('XMR', 'regtest', address)).toBe(true);
      expect(isPayableAddress('XMR', 'mainnet', address)).toBe(true);
      expect(isPayableAddress('XMR', 'testnet', address)).toBe(false);
      expect(isPayableAddress('BTC', 'mainnet', address)).toBe(false);
    }
    expect(isPayableAddress('XMR', 'testnet', ADDRESSES.testnet.standard)).toBe(true);
    expect(isPayableAddress('XMR', 'mainnet', '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo')).toBe(false);
    expect(isPayableAddress('BTC', 'mainnet', '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo')).toBe(true);
  });

  it('values a RandomX share of difficulty D at D hashes', () => {
    expect(expectedHashesPerShare(1_000, 'randomx')).toBe(1_000);
    expect(MIN_SHARE_DIFFICULTY.randomx).toBe(1);
  });
});
