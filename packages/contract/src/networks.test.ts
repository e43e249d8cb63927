import { describe, expect, it } from 'vitest';
import { addressStarts, hashesPerDifficulty, NODE_DIFFICULTY_HASHES } from './networks.js';

describe('how payout addresses start on each network', () => {
  it('knows the Bitcoin addresses of mainnet, testnet and the bcoin regtest dev chain', () => {
    expect(addressStarts('BTC', 'mainnet')).toEqual({ bech32: ['bc1'], base58: ['1', '3'] });
    expect(addressStarts('BTC', 'testnet')).toEqual({ bech32: ['tb1'], base58: ['2', 'm', 'n'] });
    expect(addressStarts('BTC', 'regtest')).toEqual({ bech32: ['rb1'], base58: ['G', 'R'] });
  });

  it('knows the Litecoin addresses of mainnet, testnet and regtest', () => {
    expect(addressStarts('LTC', 'mainnet')).toEqual({ bech32: ['ltc1'], base58: ['3', 'L', 'M'] });
    expect(addressStarts('LTC', 'testnet')).toEqual({ bech32: ['tltc1'], base58: ['2', 'Q', 'm', 'n'] });
    expect(addressStarts('LTC', 'regtest')).toEqual({ bech32: ['rltc1'], base58: ['2', 'Q', 'm', 'n'] });
  });
});

describe('hashes per unit of difficulty', () => {
  it('is 2^32 for SHA-256d and 2^16 for Scrypt in the pool unit, 2^32 in the unit nodes report', () => {
    expect(hashesPerDifficulty('BTC')).toBe(2 ** 32);
    expect(hashesPerDifficulty('LTC')).toBe(2 ** 16);
    expect(NODE_DIFFICULTY_HASHES).toBe(2 ** 32);
  });
});
