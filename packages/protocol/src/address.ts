/** Payout address -> coinbase output script (P2PKH, P2SH, P2WPKH, P2WSH, P2TR). */
import { bech32, bech32m } from 'bech32';
import bs58check from 'bs58check';
import {
  BITCOIN_FAMILY_COINS,
  NETWORKS,
  coinParams,
  familyOf,
  isBitcoinFamily,
  type Coin,
  type CoinParams,
  type Network,
} from './coins.js';
import { isKaspaAddress, kaspaNetworkOf } from './kaspa/address.js';
import { isMoneroAddress, moneroNetworkOf } from './monero/address.js';

import { AddressError } from './address-error.js';
import { looksLikePayableAddress } from './address-forms.js';

export { ADDRESS_ERROR_REASONS, AddressError, type AddressErrorReason } from './address-error.js';

export const ADDRESS_TYPES = ['p2pkh', 'p2sh', 'p2wpkh', 'p2wsh', 'p2tr'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export interface DecodedAddress {
  type: AddressType;
  /** Hash or witness program carried by the address. */
  program: Buffer;
  script: Buffer;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BECH32_LIMIT = 90;

const ALL_PARAMS = BITCOIN_FAMILY_COINS.flatMap((coin) =>
  NETWORKS.map((network) => coinParams(coin, network)),
);
const KNOWN_HRPS = new Set(ALL_PARAMS.flatMap((p) => p.bech32Hrps));

function describe(params: CoinParams): string {
  return `${params.coin} ${params.network}`;
}

export function p2pkhScript(hash160: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x76, 0xa9, 0x14]), hash160, Buffer.from([0x88, 0xac])]);
}

export function p2shScript(hash160: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xa9, 0x14]), hash160, Buffer.from([0x87])]);
}

export function witnessScript(version: number, program: Buffer): Buffer {
  const op = version === 0 ? 0x00 : 0x50 + version;
  return Buffer.concat([Buffer.from([op, program.length]), program]);
}

function decodeBase58(address: string, params: CoinParams): DecodedAddress {
  if (!BASE58.test(address)) {
    throw new AddressError('format', `"${address}" is not a valid address (unexpected characters)`);
  }
  const payload = bs58check.decodeUnsafe(address);
  if (!payload) throw new AddressError('checksum', `address "${address}" has a wrong checksum (typo?)`);
  if (payload.length !== 21) {
    throw new AddressError(
      'format',
      `address "${address}" has a ${payload.length - 1}-byte payload, expected 20`,
    );
  }
  const version = payload[0] ?? -1;
  const hash = Buffer.from(payload.subarray(1));
  if (params.pubKeyHashVersions.includes(version))
    return { type: 'p2pkh', program: hash, script: p2pkhScript(hash) };
  if (params.scriptHashVersions.includes(version))
    return { type: 'p2sh', program: hash, script: p2shScript(hash) };
  const elsewhere = ALL_PARAMS.find(
    (p) => p.pubKeyHashVersions.includes(version) || p.scriptHashVersions.includes(version),
  );
  if (elsewhere) {
    throw new AddressError(
      'network',
      `address "${address}" belongs to ${describe(elsewhere)}, not ${describe(params)}`,
    );
  }
  throw new AddressError(
    'unsupported',
    `address "${address}" has an unknown version byte 0x${version.toString(16)}`,
  );
}

function witnessType(version: number, program: Buffer, address: string, params: CoinParams): AddressType {
  if (version === 0 && program.length === 20) return 'p2wpkh';
  if (version === 0 && program.length === 32) return 'p2wsh';
  if (version === 0) {
    throw new AddressError('format', `address "${address}" has a ${program.length}-byte v0 witness program`);
  }
  if (version === 1 && program.length === 32 && params.taproot) return 'p2tr';
  throw new AddressError(
    'unsupported',
    `address "${address}" uses witness version ${version} (${program.length} bytes), which cannot be paid safely yet`,
  );
}

function decodeSegwit(address: string, hrp: string, params: CoinParams): DecodedAddress {
  if (!params.bech32Hrps.includes(hrp)) {
    const elsewhere = ALL_PARAMS.find((p) => p.bech32Hrps.includes(hrp));
    const owner = elsewhere ? describe(elsewhere) : `prefix "${hrp}"`;
    throw new AddressError('network', `address "${address}" belongs to ${owner}, not ${describe(params)}`);
  }
  const asBech32 = bech32.decodeUnsafe(address, BECH32_LIMIT);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(address, BECH32_LIMIT);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) throw new AddressError('checksum', `address "${address}" has a wrong checksum (typo?)`);
  const [version, ...data] = decoded.words;
  if (version === undefined || version > 16) {
    throw new AddressError('format', `address "${address}" has no valid witness version`);
  }
  // BIP350: version 0 uses bech32, versions 1-16 use bech32m.
  if ((version === 0) !== Boolean(asBech32)) {
    throw new AddressError(
      'checksum',
      `address "${address}" uses the wrong checksum kind for witness version ${version}`,
    );
  }
  const bytes = bech32.fromWordsUnsafe(data);
  if (!bytes || bytes.length < 2 || bytes.length > 40) {
    throw new AddressError('format', `address "${address}" has an invalid witness program`);
  }
  const program = Buffer.from(bytes);
  const type = witnessType(version, program, address, params);
  return { type, program, script: witnessScript(version, program) };
}

/** Decode an address of the given coin/network, or throw AddressError with a clear reason. */
export function decodeAddress(address: string, params: CoinParams): DecodedAddress {
  if (typeof address !== 'string' || address.length === 0)
    throw new AddressError('format', 'address is empty');
  if (address.trim() !== address) {
    throw new AddressError('format', `address "${address}" has spaces around it`);
  }
  const lower = address.toLowerCase();
  const separator = lower.lastIndexOf('1');
  const hrp = separator > 0 ? lower.slice(0, separator) : '';
  if (/^[a-z]*mweb$/.test(hrp)) {
    throw new AddressError('mweb', `"${address}" is an MWEB address; a coinbase cannot pay an MWEB address`);
  }
  if (hrp && (KNOWN_HRPS.has(hrp) || params.bech32Hrps.includes(hrp)))
    return decodeSegwit(address, hrp, params);
  if (hrp && (bech32.decodeUnsafe(address, BECH32_LIMIT) ?? bech32m.decodeUnsafe(address, BECH32_LIMIT))) {
    throw new AddressError(
      'network',
      `address "${address}" has prefix "${hrp}", which is not ${describe(params)}`,
    );
  }
  return decodeBase58(address, params);
}

export function addressToOutputScript(address: string, params: CoinParams): Buffer {
  return decodeAddress(address, params).script;
}

export function isValidAddress(address: string, params: CoinParams): boolean {
  try {
    decodeAddress(address, params);
    return true;
  } catch (error) {
    if (error instanceof AddressError) return false;
    throw error;
  }
}

/**
 * The one payout-address check (registration, Settings, Stratum login, payout planning): whether
 * the pool can pay `address` in `coin` on `network`, decoded by the coin's family from the coin
 * table: a Bitcoin-family address its node pays (above: checksum, version byte or bech32 prefix,
 * witness version), or a Monero standard, integrated or subaddress of that network (Monero base58,
 * network prefix, Keccak checksum), or a Kaspa address of that network (`kaspa:` / `kaspatest:` /
 * `kaspasim:` on regtest, bech32-style checksum). The address must first have one of the coin's
 * forms (address-forms.ts), the web's quick check, so the web never refuses what the pool pays.
 * A new family adds its case here and in `addressFormsOf`; lint fails until it does.
 */
export function isPayableAddress(coin: Coin, network: Network, address: string): boolean {
  if (!looksLikePayableAddress(coin, network, address)) return false;
  const family = familyOf(coin);
  switch (family) {
    case 'bitcoin':
      return isBitcoinFamily(coin) && isValidAddress(address, coinParams(coin, network));
    case 'monero':
      return isMoneroAddress(address, moneroNetworkOf(network));
    case 'kaspa':
      return isKaspaAddress(address, kaspaNetworkOf(network));
  }
}
