/**
 * The address forms of every pool coin on every network, one dispatch over the coin's family
 * (Bitcoin's forms here, Monero's and Kaspa's in their folders). `looksLikePayableAddress` is the
 * web's quick check (through the contract) and the first step of the server's `isPayableAddress`.
 * Pure: no Buffer, no I/O.
 */
import {
  base32Length,
  base58Digit,
  base58Length,
  base58Range,
  matchesAddressForm,
  type AddressForm,
} from './address-form.js';
import {
  addressPrefixes,
  familyOf,
  isBitcoinFamily,
  type BitcoinFamilyCoin,
  type Coin,
  type Network,
} from './coins.js';
import { kaspaAddressForms, kaspaNetworkOf } from './kaspa/address.js';
import { moneroAddressForms, moneroNetworkOf } from './monero/address.js';

export { BASE58_ALPHABET, BECH32_ALPHABET, matchesAddressForm, type AddressForm } from './address-form.js';

/** Bytes of a base58check address: version byte, 20-byte hash, 4-byte checksum. */
const BASE58CHECK_BYTES = 25;
/** Shortest base58check address the quick check lets through (leading zero bytes shorten it). */
const BASE58CHECK_MIN_LENGTH = 26;
/** Witness programs the pool pays: 20 bytes (P2WPKH), 32 bytes (P2WSH, P2TR). */
const WITNESS_PROGRAM_BYTES = [20, 32];
/** Characters of a bech32 checksum. */
const BECH32_CHECKSUM_CHARS = 6;

/** The first characters and lengths of base58check addresses with this version byte. */
function base58checkForm(version: number): AddressForm {
  const rest = BigInt(8 * (BASE58CHECK_BYTES - 1));
  const low = BigInt(version) << rest;
  const high = low + (1n << rest) - 1n;
  if (version === 0) {
    // Each leading zero byte is a "1"; the 24 bytes after it are at most 33 characters.
    const longest = 1 + base58Length((1n << rest) - 1n);
    const lengths = Array.from(
      { length: longest - BASE58CHECK_MIN_LENGTH + 1 },
      (_, i) => i + BASE58CHECK_MIN_LENGTH,
    );
    return { alphabet: 'base58', starts: ['1'], lengths };
  }
  const [lowLength, highLength] = [base58Length(low), base58Length(high)];
  const starts = new Set<string>();
  const lengths: number[] = [];
  for (let length = lowLength; length <= highLength; length++) {
    const from = length === lowLength ? low : 58n ** BigInt(length - 1);
    const to = length === highLength ? high : 58n ** BigInt(length) - 1n;
    for (const lead of base58Range(base58Digit(from, length - 1), base58Digit(to, length - 1)))
      starts.add(lead);
    lengths.push(length);
  }
  return { alphabet: 'base58', starts: [...starts].sort(), lengths };
}

/** A Bitcoin-family coin's addresses on a network: its bech32 prefixes and base58check versions. */
export function bitcoinAddressForms(coin: BitcoinFamilyCoin, network: Network): AddressForm[] {
  const prefixes = addressPrefixes(coin, network);
  const versions = [...prefixes.pubKeyHashVersions, ...prefixes.scriptHashVersions];
  const bech32: AddressForm = {
    alphabet: 'bech32',
    starts: prefixes.bech32Hrps.map((hrp) => `${hrp}1`),
    // Witness version, program, checksum.
    lengths: WITNESS_PROGRAM_BYTES.map((bytes) => 1 + base32Length(bytes) + BECH32_CHECKSUM_CHARS),
  };
  return [bech32, ...versions.map(base58checkForm)];
}

/** The forms of the addresses the pool pays in `coin` on `network`. */
export function addressFormsOf(coin: Coin, network: Network): AddressForm[] {
  const family = familyOf(coin);
  switch (family) {
    case 'bitcoin':
      if (isBitcoinFamily(coin)) return bitcoinAddressForms(coin, network);
      break;
    case 'monero':
      return moneroAddressForms(moneroNetworkOf(network));
    case 'kaspa':
      return kaspaAddressForms(kaspaNetworkOf(network));
  }
  throw new RangeError(`${coin} is not of its family ${family}`);
}

/**
 * Whether `address` has the form of an address the pool pays in `coin` on `network`. Every
 * address `isPayableAddress` accepts passes (it asks this first); a checksum typo passes too and
 * is the server's to refuse.
 */
export function looksLikePayableAddress(coin: Coin, network: Network, address: string): boolean {
  return addressFormsOf(coin, network).some((form) => matchesAddressForm(form, address));
}
