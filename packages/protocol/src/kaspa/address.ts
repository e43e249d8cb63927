/**
 * Kaspa addresses (kaspad util/address.go, util/bech32/bech32.go): `prefix:` + base32 (the
 * bech32 alphabet) of version byte ‖ payload, then a 40-bit BCH checksum (8 characters, the
 * cashaddr polymod) over the prefix's low 5 bits per character, a 0, and the data. Version 0 =
 * PubKey (32-byte Schnorr key), 1 = PubKeyECDSA (33 bytes), 8 = ScriptHash (32-byte BLAKE2b).
 * Pay-to-address scripts (domain/consensus/utils/txscript/standard.go), script version 0:
 * PubKey `OP_DATA_32 key OP_CHECKSIG`, ECDSA `OP_DATA_33 key OP_CHECKSIGECDSA`,
 * ScriptHash `OP_BLAKE2B OP_DATA_32 hash OP_EQUAL`.
 * Stricter than kaspad in one point: leftover padding bits must be zero, so one payload has one
 * address string (kaspad ignores them).
 */
import { base32Length, BECH32_ALPHABET as CHARSET, type AddressForm } from '../address-form.js';
// Type-only: ../address.ts will import this module for its family switch (no runtime cycle).
import type { AddressErrorReason } from '../address-error.js';

/** A refused Kaspa address, with the reason vocabulary of every family (address.ts). */
export class KaspaAddressError extends Error {
  readonly reason: AddressErrorReason;
  constructor(reason: AddressErrorReason, message: string) {
    super(message);
    this.name = 'KaspaAddressError';
    this.reason = reason;
  }
}

export const KASPA_NETWORKS = ['mainnet', 'testnet', 'devnet', 'simnet'] as const;
export type KaspaNetwork = (typeof KASPA_NETWORKS)[number];

export const KASPA_ADDRESS_PREFIXES: Record<KaspaNetwork, string> = {
  mainnet: 'kaspa',
  testnet: 'kaspatest',
  devnet: 'kaspadev',
  simnet: 'kaspasim',
};

/**
 * The address network of the pool's network setting (chains.KAS.network): the pool's regtest is
 * the dev chain, a lone kaspad started with --simnet, so its addresses are kaspasim:.
 */
export function kaspaNetworkOf(network: 'mainnet' | 'testnet' | 'regtest'): KaspaNetwork {
  return network === 'regtest' ? 'simnet' : network;
}

export const KASPA_ADDRESS_KINDS = ['pubkey', 'pubkey-ecdsa', 'scripthash'] as const;
export type KaspaAddressKind = (typeof KASPA_ADDRESS_KINDS)[number];

const KINDS: Record<KaspaAddressKind, { version: number; length: number }> = {
  pubkey: { version: 0x00, length: 32 },
  'pubkey-ecdsa': { version: 0x01, length: 33 },
  scripthash: { version: 0x08, length: 32 },
};

export interface KaspaAddress {
  network: KaspaNetwork;
  kind: KaspaAddressKind;
  /** Public key (32 or 33 bytes) or script hash (32 bytes). */
  payload: Uint8Array;
}

const CHECKSUM_CHARS = 8;
/** The BCH generator's five 40-bit constants as [bits 32..39, bits 0..31] (no bigints per character). */
const GENERATOR: [number, number][] = [
  [0x98, 0xf2bc8e61],
  [0x79, 0xb76d99e2],
  [0xf3, 0x3e5fb3c4],
  [0xae, 0x2eabe2a8],
  [0x1e, 0x4f43e470],
];

/** cashaddr's polymod over 5-bit values, as a 40-bit number (exact in a double). */
function polymod(values: number[]): number {
  let hi = 0;
  let lo = 1;
  for (const value of values) {
    const top = hi >>> 3;
    hi = ((hi & 0x07) << 5) | (lo >>> 27);
    lo = ((lo << 5) | value) >>> 0;
    for (let i = 0; i < 5; i++) {
      if ((top >>> i) & 1) {
        const [gHi, gLo] = GENERATOR[i] ?? [0, 0];
        hi ^= gHi;
        lo = (lo ^ gLo) >>> 0;
      }
    }
  }
  return hi * 2 ** 32 + ((lo ^ 1) >>> 0);
}

function prefixValues(prefix: string): number[] {
  return [...prefix].map((c) => c.charCodeAt(0) & 31);
}

function checksumOf(prefix: string, data: number[]): number[] {
  const mod = polymod([...prefixValues(prefix), 0, ...data, ...new Array<number>(CHECKSUM_CHARS).fill(0)]);
  return Array.from(
    { length: CHECKSUM_CHARS },
    (_, i) => Math.floor(mod / 2 ** (5 * (CHECKSUM_CHARS - 1 - i))) % 32,
  );
}

/** Regroup bits; `pad` adds zero bits to a last group, otherwise leftover bits must be zero. */
function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | (data[i] ?? 0);
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & ((1 << to) - 1));
    }
    acc &= (1 << bits) - 1;
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & ((1 << to) - 1));
  else if (!pad && acc !== 0) return undefined;
  return out;
}

function networkOfPrefix(prefix: string): KaspaNetwork | undefined {
  return KASPA_NETWORKS.find((n) => KASPA_ADDRESS_PREFIXES[n] === prefix);
}

/** The address form of a network: its prefix and colon, then version, payload and checksum. */
export function kaspaAddressForms(network: KaspaNetwork): AddressForm[] {
  const lengths = new Set(
    KASPA_ADDRESS_KINDS.map((kind) => base32Length(1 + KINDS[kind].length) + CHECKSUM_CHARS),
  );
  return [
    {
      alphabet: 'bech32',
      starts: [`${KASPA_ADDRESS_PREFIXES[network]}:`],
      lengths: [...lengths].sort((a, b) => a - b),
    },
  ];
}

/** Encode a payload as an address of a network. */
export function encodeKaspaAddress(address: KaspaAddress): string {
  const { version, length } = KINDS[address.kind];
  if (address.payload.length !== length)
    throw new RangeError(`${address.kind} payload must be ${length} bytes, got ${address.payload.length}`);
  const prefix = KASPA_ADDRESS_PREFIXES[address.network];
  const data = convertBits([version, ...address.payload], 8, 5, true) ?? [];
  const chars = [...data, ...checksumOf(prefix, data)].map((v) => CHARSET[v] ?? '');
  return `${prefix}:${chars.join('')}`;
}

/** Decode and check an address; `network`, when given, must match its prefix. */
export function decodeKaspaAddress(address: string, network?: KaspaNetwork): KaspaAddress {
  if (typeof address !== 'string' || (address !== address.toLowerCase() && address !== address.toUpperCase()))
    throw new KaspaAddressError('format', 'Kaspa address must be all lower or all upper case');
  const text = address.toLowerCase();
  const colon = text.lastIndexOf(':');
  if (colon < 1 || text.length - colon - 1 <= CHECKSUM_CHARS)
    throw new KaspaAddressError('format', 'Kaspa address needs a prefix, a colon and its data');
  const prefix = text.slice(0, colon);
  const values = [...text.slice(colon + 1)].map((c) => CHARSET.indexOf(c));
  if (values.includes(-1))
    throw new KaspaAddressError('format', 'Kaspa address has a character outside its alphabet');
  if (polymod([...prefixValues(prefix), 0, ...values]) !== 0)
    throw new KaspaAddressError('checksum', 'Kaspa address checksum does not match');
  const found = networkOfPrefix(prefix);
  if (found === undefined) throw new KaspaAddressError('network', `Unknown Kaspa address prefix "${prefix}"`);
  if (network !== undefined && found !== network)
    throw new KaspaAddressError('network', `Address is for Kaspa ${found}, the pool runs ${network}`);
  const bytes = convertBits(values.slice(0, -CHECKSUM_CHARS), 5, 8, false);
  if (bytes === undefined || bytes.length === 0)
    throw new KaspaAddressError('format', 'Kaspa address has bad padding');
  const [version, ...payload] = bytes;
  const kind = KASPA_ADDRESS_KINDS.find((k) => KINDS[k].version === version);
  if (kind === undefined)
    throw new KaspaAddressError('unsupported', `Unknown Kaspa address version ${version}`);
  if (payload.length !== KINDS[kind].length)
    throw new KaspaAddressError(
      'format',
      `${kind} address must hold ${KINDS[kind].length} bytes, got ${payload.length}`,
    );
  return { network: found, kind, payload: Uint8Array.from(payload) };
}

/** Whether the address is a valid Kaspa address of the network. */
export function isKaspaAddress(address: string, network: KaspaNetwork): boolean {
  try {
    decodeKaspaAddress(address, network);
    return true;
  } catch (error) {
    if (error instanceof KaspaAddressError) return false;
    throw error;
  }
}

export interface KaspaScriptPublicKey {
  version: number;
  script: Uint8Array;
}

const OP_DATA_32 = 0x20;
const OP_DATA_33 = 0x21;
const OP_EQUAL = 0x87;
const OP_BLAKE2B = 0xaa;
const OP_CHECKSIGECDSA = 0xab;
const OP_CHECKSIG = 0xac;

/** The script public key that pays an address (txscript.PayToAddrScript). */
export function kaspaPayToAddressScript(address: KaspaAddress | string): KaspaScriptPublicKey {
  const { kind, payload } = typeof address === 'string' ? decodeKaspaAddress(address) : address;
  const script =
    kind === 'pubkey'
      ? [OP_DATA_32, ...payload, OP_CHECKSIG]
      : kind === 'pubkey-ecdsa'
        ? [OP_DATA_33, ...payload, OP_CHECKSIGECDSA]
        : [OP_BLAKE2B, OP_DATA_32, ...payload, OP_EQUAL];
  return { version: 0, script: Uint8Array.from(script) };
}

/** The address a standard script pays (e.g. a coinbase output), or undefined for other scripts. */
export function kaspaAddressOfScript(spk: KaspaScriptPublicKey, network: KaspaNetwork): string | undefined {
  const s = spk.script;
  if (spk.version !== 0) return undefined;
  const body = (from: number, to: number): Uint8Array => s.slice(from, to);
  if (s.length === 34 && s[0] === OP_DATA_32 && s[33] === OP_CHECKSIG)
    return encodeKaspaAddress({ network, kind: 'pubkey', payload: body(1, 33) });
  if (s.length === 35 && s[0] === OP_DATA_33 && s[34] === OP_CHECKSIGECDSA)
    return encodeKaspaAddress({ network, kind: 'pubkey-ecdsa', payload: body(1, 34) });
  if (s.length === 35 && s[0] === OP_BLAKE2B && s[1] === OP_DATA_32 && s[34] === OP_EQUAL)
    return encodeKaspaAddress({ network, kind: 'scripthash', payload: body(2, 34) });
  return undefined;
}
