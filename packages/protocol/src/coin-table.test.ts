import { describe, expect, it } from 'vitest';
import { isPayableAddress } from './address.js';
import {
  ALGORITHM_TABLE,
  ALGORITHMS,
  COIN_TABLE,
  COINS,
  FAMILIES,
  coinsOf,
  familyOf,
  isOfFamily,
} from './coin-table.js';
import { BITCOIN_FAMILY_COINS, coinbaseMaturityOf, isBitcoinFamily, shareValuer } from './coins.js';
import { COIN_DECIMALS } from './money.js';
import { diff1Target, expectedHashesPerShare } from './target.js';
import { ADDRESSES } from '../test/monero/test-fixtures.js';

describe('the coin table', () => {
  it('lists every mined coin once, in table order, each with a declared family', () => {
    expect(COINS).toEqual(Object.keys(COIN_TABLE));
    expect(ALGORITHMS).toEqual(Object.keys(ALGORITHM_TABLE));
    for (const coin of COINS) expect(FAMILIES).toContain(familyOf(coin));
    expect(coinsOf('bitcoin')).toEqual(['BTC', 'LTC']);
    expect(coinsOf('monero')).toEqual(['XMR']);
    expect(BITCOIN_FAMILY_COINS).toEqual(coinsOf('bitcoin'));
  });

  it('answers the family guards from the table, never by naming the other family', () => {
    expect(COINS.filter((coin) => isBitcoinFamily(coin))).toEqual(['BTC', 'LTC']);
    expect(COINS.filter((coin) => isOfFamily(coin, 'monero'))).toEqual(['XMR']);
    expect(COINS.filter((coin) => isOfFamily(coin, 'kaspa'))).toEqual(['KAS']);
  });

  it('gives decimals and coinbase maturity from one row per coin', () => {
    expect(COINS.map((coin) => [coin, COIN_DECIMALS[coin], coinbaseMaturityOf(coin)])).toEqual([
      ['BTC', 8, 100],
      ['LTC', 8, 100],
      ['XMR', 12, 60],
      ['KAS', 8, 1_000],
    ]);
    expect(COIN_DECIMALS).toMatchObject({ DOGE: 8, KDA: 12, KAS: 8 });
  });

  it("agrees with each algorithm's difficulty-1 target: 2^32 hashes for SHA-256d, 2^16 for Scrypt, 1 for RandomX", () => {
    for (const algorithm of ALGORITHMS) {
      // 2^256 / (0xffff << 208) is 2^32 * 65536/65535: the convention rounds it to 2^32.
      const fromTarget = Number((1n << 256n) / (diff1Target(algorithm) + 1n));
      expect(ALGORITHM_TABLE[algorithm].hashesPerDifficulty / fromTarget).toBeCloseTo(1, 4);
      expect(expectedHashesPerShare(3, algorithm)).toBe(3 * ALGORITHM_TABLE[algorithm].hashesPerDifficulty);
    }
  });
});

describe('the one payout-address check, by family', () => {
  const real = ADDRESSES.mainnet.standard;

  it('accepts a real Monero address on regtest and mainnet, and refuses a shape-only one', () => {
    expect(isPayableAddress('XMR', 'regtest', real)).toBe(true);
    expect(isPayableAddress('XMR', 'mainnet', real)).toBe(true);
    expect(isPayableAddress('XMR', 'testnet', real)).toBe(false);
    expect(isPayableAddress('XMR', 'regtest', `4${'a'.repeat(94)}`)).toBe(false);
    expect(isPayableAddress('XMR', 'regtest', `${real.slice(0, -1)}B`)).toBe(false);
  });

  it('never accepts an address of one family for a coin of the other', () => {
    expect(isPayableAddress('BTC', 'mainnet', real)).toBe(false);
    expect(isPayableAddress('XMR', 'mainnet', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(false);
    expect(isPayableAddress('BTC', 'mainnet', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true);
  });
});

describe('what a PPS+ share is valued at, by the coin table', () => {
  it('values a Bitcoin-family share by the subsidy at its height, halvings included, whatever template reward is recorded', () => {
    const btc = shareValuer('BTC', 'mainnet');
    expect(btc(0, null)).toBe(5_000_000_000n);
    expect(btc(840_000, 999n)).toBe(312_500_000n);
    expect(shareValuer('LTC', 'regtest')(150, null)).toBe(2_500_000_000n);
  });

  it("values a Monero or Kaspa share by its template's recorded reward, and at nothing while none is recorded", () => {
    for (const coin of ['XMR', 'KAS'] as const) {
      expect(COIN_TABLE[coin].shareValue).toBe('template-reward');
      expect(shareValuer(coin, 'regtest')(12, 50_000_000_000n)).toBe(50_000_000_000n);
      expect(shareValuer(coin, 'regtest')(12, null)).toBe(0n);
    }
  });
});
