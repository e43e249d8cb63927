// Coin networks and the figures the web needs from the protocol package, defined there once
// (protocol/coins.ts and protocol/target.ts import nothing with I/O: safe for the web bundle).
import { addressFormsOf, looksLikePayableAddress, type AddressForm } from '@manjam/protocol/address-forms';
import {
  ALGORITHM_TABLE,
  algorithmOf,
  FAMILIES,
  familyOf,
  HASHRATE_UNITS,
  NETWORKS,
  type Family,
  type HashrateUnit,
  type Network,
} from '@manjam/protocol/coins';
import { expectedHashesPerShare } from '@manjam/protocol/target';
import type { PoolCoin } from './tables.js';

export {
  addressFormsOf,
  FAMILIES,
  familyOf,
  HASHRATE_UNITS,
  looksLikePayableAddress,
  NETWORKS,
  type AddressForm,
  type Family,
  type HashrateUnit,
  type Network,
};

/** The unit a coin's miners count their hashrate in (the protocol's coin table): TH/s, GH/s, kH/s. */
export function hashrateUnitOf(coin: PoolCoin): HashrateUnit {
  return ALGORITHM_TABLE[algorithmOf(coin)].hashrateUnit;
}

/**
 * Expected hashes per unit of the pool's (Stratum) difficulty of a coin: 2^32 for SHA-256d,
 * 2^16 for Scrypt, 1 for RandomX (Monero's difficulty counts hashes). The pool's shares and `networkDifficulty` in /api/pool/stats are in this unit.
 */
export function hashesPerDifficulty(coin: PoolCoin): number {
  return expectedHashesPerShare(1, algorithmOf(coin));
}

/**
 * Expected hashes per unit of the difficulty nodes and explorers report for Bitcoin, Litecoin and
 * Dogecoin alike (Bitcoin Core's unit, relative to 0x00000000ffff...): the SHA-256d Stratum unit.
 */
export const NODE_DIFFICULTY_HASHES = expectedHashesPerShare(1, 'sha256d');

export interface AddressStarts {
  /** Bech32 human-readable parts with their separator, lower case: "bc1", "rb1", "rltc1", "kaspa:". */
  bech32: string[];
  /** First characters of the base58 addresses the coin's node (or Monero wallet) pays on this network. */
  base58: string[];
}

/**
 * How a payout address of a pool coin starts on a network, read from the coin's address forms
 * (`addressFormsOf`, the same forms the server's check requires before it decodes).
 */
export function addressStarts(coin: PoolCoin, network: Network): AddressStarts {
  const forms = addressFormsOf(coin, network);
  const startsOf = (alphabet: AddressForm['alphabet']): string[] => [
    ...new Set(forms.filter((form) => form.alphabet === alphabet).flatMap((form) => form.starts)),
  ];
  return { bech32: startsOf('bech32'), base58: startsOf('base58').sort() };
}
