// Coin networks and the figures the web needs from the protocol package, defined there once
// (protocol/coins.ts and protocol/target.ts import nothing with I/O: safe for the web bundle).
import {
  addressPrefixes,
  ALGORITHM_TABLE,
  algorithmOf,
  familyOf,
  HASHRATE_UNITS,
  isBitcoinFamily,
  NETWORKS,
  type BitcoinFamilyCoin,
  type HashrateUnit,
  type Network,
} from '@manjam/protocol/coins';
import { KASPA_ADDRESS_PREFIXES, kaspaNetworkOf } from '@manjam/protocol/kaspa';
import { encodeVarint, MONERO_ADDRESS_PREFIXES, moneroNetworkOf } from '@manjam/protocol/monero';
import { expectedHashesPerShare } from '@manjam/protocol/target';
import type { PoolCoin } from './common.js';

export { familyOf, HASHRATE_UNITS, NETWORKS, type HashrateUnit, type Network };

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

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Bytes of a base58check address: version byte, 20-byte hash, 4-byte checksum. */
const BASE58_PAYLOAD_BYTES = 25;

function base58Length(value: bigint): number {
  let length = 0;
  for (let rest = value; rest > 0n; rest /= 58n) length += 1;
  return length;
}

function base58Digit(value: bigint, position: number): string {
  return BASE58_ALPHABET[Number((value / 58n ** BigInt(position)) % 58n)] ?? '';
}

/** First characters a base58check address with this version byte can have ("m" and "n" for 0x6f). */
function base58Leads(version: number): string[] {
  if (version === 0) return ['1'];
  const rest = BigInt(8 * (BASE58_PAYLOAD_BYTES - 1));
  const low = BigInt(version) << rest;
  const high = low + (1n << rest) - 1n;
  const leads = new Set<string>();
  const [lowLength, highLength] = [base58Length(low), base58Length(high)];
  for (let length = lowLength; length <= highLength; length++) {
    const from = length === lowLength ? low : 58n ** BigInt(length - 1);
    const to = length === highLength ? high : 58n ** BigInt(length) - 1n;
    const first = BASE58_ALPHABET.indexOf(base58Digit(from, length - 1));
    const last = BASE58_ALPHABET.indexOf(base58Digit(to, length - 1));
    for (let i = first; i <= last; i++) leads.add(BASE58_ALPHABET[i] ?? '');
  }
  return [...leads].sort();
}

/** Characters of a full 8-byte block in Monero's base58 (each block is its own big-endian number). */
const MONERO_BLOCK_CHARS = 11;

/** First characters of Monero addresses with this varint prefix (a standard mainnet one starts with "4"). */
function moneroLeads(prefix: number): string[] {
  const head = encodeVarint(prefix);
  const rest = BigInt(8 * (8 - head.length));
  const value = head.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n) << rest;
  const leads = [value, value + (1n << rest) - 1n].map((n) => base58Digit(n, MONERO_BLOCK_CHARS - 1));
  const [from = 0, to = 0] = leads.map((c) => BASE58_ALPHABET.indexOf(c));
  return [...BASE58_ALPHABET.slice(from, to + 1)];
}

export interface AddressStarts {
  /** Bech32 human-readable parts with their separator, lower case: "bc1", "rb1", "rltc1", "kaspa:". */
  bech32: string[];
  /** First characters of the base58 addresses the coin's node (or Monero wallet) pays on this network. */
  base58: string[];
}

/**
 * How a payout address of a pool coin starts on a network, from the protocol's network parameters
 * (the server's own check, protocol/address.ts, stays the authority: checksums, lengths, types).
 */
export function addressStarts(coin: PoolCoin, network: Network): AddressStarts {
  const family = familyOf(coin);
  switch (family) {
    case 'monero': {
      const prefixes = Object.values(MONERO_ADDRESS_PREFIXES[moneroNetworkOf(network)]);
      return { bech32: [], base58: [...new Set(prefixes.flatMap(moneroLeads))].sort() };
    }
    case 'kaspa':
      // `kaspa:` / `kaspatest:` / `kaspasim:` and the bech32 alphabet (checksum: the server's).
      return { bech32: [`${KASPA_ADDRESS_PREFIXES[kaspaNetworkOf(network)]}:`], base58: [] };
    case 'bitcoin':
      if (isBitcoinFamily(coin)) return bitcoinStarts(coin, network);
  }
  throw new RangeError(`${coin} is not of its family ${family}`);
}

function bitcoinStarts(coin: BitcoinFamilyCoin, network: Network): AddressStarts {
  const prefixes = addressPrefixes(coin, network);
  const versions = [...prefixes.pubKeyHashVersions, ...prefixes.scriptHashVersions];
  return {
    bech32: prefixes.bech32Hrps.map((hrp) => `${hrp}1`),
    base58: [...new Set(versions.flatMap(base58Leads))].sort(),
  };
}
