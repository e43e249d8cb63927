/**
 * Monero addresses: Monero's own base58 (8-byte blocks, each to 11 characters; a shorter last
 * block to 2-10), over varint network prefix || public spend key || public view key
 * [|| 8-byte payment id for integrated addresses] || first 4 bytes of Keccak-256 of the rest.
 * Regtest uses mainnet prefixes.
 */
import { BASE58_ALPHABET as ALPHABET, base58Digit, base58Range, type AddressForm } from '../address-form.js';
import { keccak256 } from './keccak.js';
import { decodeSmallVarint, encodeVarint } from './varint.js';

export const MONERO_NETWORKS = ['mainnet', 'testnet', 'stagenet'] as const;
export type MoneroNetwork = (typeof MONERO_NETWORKS)[number];

/** The address network of the pool's network setting: regtest uses mainnet's prefixes. */
export function moneroNetworkOf(network: 'mainnet' | 'testnet' | 'regtest'): MoneroNetwork {
  return network === 'testnet' ? 'testnet' : 'mainnet';
}

export const MONERO_ADDRESS_KINDS = ['standard', 'integrated', 'subaddress'] as const;
export type MoneroAddressKind = (typeof MONERO_ADDRESS_KINDS)[number];

/** cryptonote_config.h: CRYPTONOTE_PUBLIC_(INTEGRATED_|SUB)ADDRESS_BASE58_PREFIX per network. */
export const MONERO_ADDRESS_PREFIXES: Record<MoneroNetwork, Record<MoneroAddressKind, number>> = {
  mainnet: { standard: 18, integrated: 19, subaddress: 42 },
  testnet: { standard: 53, integrated: 54, subaddress: 63 },
  stagenet: { standard: 24, integrated: 25, subaddress: 36 },
};

export interface MoneroAddress {
  network: MoneroNetwork;
  kind: MoneroAddressKind;
  spendKey: Uint8Array;
  viewKey: Uint8Array;
  /** Integrated addresses only. */
  paymentId?: Uint8Array;
}

const FULL_BLOCK_BYTES = 8;
const FULL_BLOCK_CHARS = 11;
/** Characters of an encoded block of n bytes (n = 0..8). */
const ENCODED_BLOCK_CHARS = [0, 2, 3, 5, 6, 7, 9, 10, 11] as const;
const KEY_BYTES = 32;
const PAYMENT_ID_BYTES = 8;
const CHECKSUM_BYTES = 4;

export function moneroBase58Encode(data: Uint8Array): string {
  let out = '';
  for (let start = 0; start < data.length; start += FULL_BLOCK_BYTES) {
    const block = data.subarray(start, start + FULL_BLOCK_BYTES);
    let value = 0n;
    for (const byte of block) value = (value << 8n) | BigInt(byte);
    let chars = '';
    while (value > 0n) {
      chars = ALPHABET[Number(value % 58n)] + chars;
      value /= 58n;
    }
    out += chars.padStart(ENCODED_BLOCK_CHARS[block.length] as number, ALPHABET[0]);
  }
  return out;
}

/** The bytes of a Monero base58 string, or undefined when it is not valid Monero base58. */
export function moneroBase58Decode(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (let start = 0; start < text.length; start += FULL_BLOCK_CHARS) {
    const chunk = text.slice(start, start + FULL_BLOCK_CHARS);
    const size = ENCODED_BLOCK_CHARS.indexOf(chunk.length as (typeof ENCODED_BLOCK_CHARS)[number]);
    if (size <= 0) return undefined;
    let value = 0n;
    for (const char of chunk) {
      const digit = ALPHABET.indexOf(char);
      if (digit < 0) return undefined;
      value = value * 58n + BigInt(digit);
    }
    if (value >> BigInt(8 * size) !== 0n) return undefined; // overflows the block
    for (let i = size - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(8 * i)) & 0xffn));
  }
  return Uint8Array.from(bytes);
}

/** Parses and checks a Monero address; undefined when it is not one (any network or kind). */
export function parseMoneroAddress(text: string): MoneroAddress | undefined {
  const data = moneroBase58Decode(text.trim());
  if (data === undefined || data.length < 1 + 2 * KEY_BYTES + CHECKSUM_BYTES) return undefined;
  let prefix: { value: number; next: number };
  try {
    prefix = decodeSmallVarint(data, 0);
  } catch {
    return undefined;
  }
  let found: { network: MoneroNetwork; kind: MoneroAddressKind } | undefined;
  for (const network of MONERO_NETWORKS) {
    for (const kind of MONERO_ADDRESS_KINDS) {
      if (MONERO_ADDRESS_PREFIXES[network][kind] === prefix.value) found = { network, kind };
    }
  }
  if (found === undefined) return undefined;
  const body = prefix.next + 2 * KEY_BYTES + (found.kind === 'integrated' ? PAYMENT_ID_BYTES : 0);
  if (data.length !== body + CHECKSUM_BYTES) return undefined;
  const checksum = keccak256(data.subarray(0, body)).subarray(0, CHECKSUM_BYTES);
  for (let i = 0; i < CHECKSUM_BYTES; i++) if (checksum[i] !== data[body + i]) return undefined;
  const spendKey = data.slice(prefix.next, prefix.next + KEY_BYTES);
  const viewKey = data.slice(prefix.next + KEY_BYTES, prefix.next + 2 * KEY_BYTES);
  const address: MoneroAddress = { ...found, spendKey, viewKey };
  if (found.kind === 'integrated') address.paymentId = data.slice(prefix.next + 2 * KEY_BYTES, body);
  return address;
}

/** True when `text` is a valid Monero address of `network` (any kind unless `kinds` narrows it). */
export function isMoneroAddress(
  text: string,
  network: MoneroNetwork,
  kinds: readonly MoneroAddressKind[] = MONERO_ADDRESS_KINDS,
): boolean {
  const address = parseMoneroAddress(text);
  return address !== undefined && address.network === network && kinds.includes(address.kind);
}

/** The address text for keys (and a payment id for an integrated address). */
export function encodeMoneroAddress(address: MoneroAddress): string {
  const prefix = encodeVarint(MONERO_ADDRESS_PREFIXES[address.network][address.kind]);
  const paymentId =
    address.kind === 'integrated' ? (address.paymentId ?? new Uint8Array(0)) : new Uint8Array(0);
  if (address.kind === 'integrated' && paymentId.length !== PAYMENT_ID_BYTES) {
    throw new RangeError('an integrated address carries an 8-byte payment id');
  }
  const body = new Uint8Array(prefix.length + 2 * KEY_BYTES + paymentId.length);
  body.set(prefix, 0);
  body.set(address.spendKey, prefix.length);
  body.set(address.viewKey, prefix.length + KEY_BYTES);
  body.set(paymentId, prefix.length + 2 * KEY_BYTES);
  const data = new Uint8Array(body.length + CHECKSUM_BYTES);
  data.set(body, 0);
  data.set(keccak256(body).subarray(0, CHECKSUM_BYTES), body.length);
  return moneroBase58Encode(data);
}

/** Characters of `bytes` bytes in Monero's base58 (full 8-byte blocks, then a shorter one). */
function encodedLength(bytes: number): number {
  return (
    Math.floor(bytes / FULL_BLOCK_BYTES) * FULL_BLOCK_CHARS +
    (ENCODED_BLOCK_CHARS[bytes % FULL_BLOCK_BYTES] as number)
  );
}

/** The address forms of a network, one per kind: first characters from its prefix, its length. */
export function moneroAddressForms(network: MoneroNetwork): AddressForm[] {
  return MONERO_ADDRESS_KINDS.map((kind) => {
    const head = encodeVarint(MONERO_ADDRESS_PREFIXES[network][kind]);
    const rest = BigInt(8 * (FULL_BLOCK_BYTES - head.length));
    const low = head.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n) << rest;
    const high = low + (1n << rest) - 1n;
    const [first, last] = [low, high].map((n) => base58Digit(n, FULL_BLOCK_CHARS - 1));
    const bytes =
      head.length + 2 * KEY_BYTES + (kind === 'integrated' ? PAYMENT_ID_BYTES : 0) + CHECKSUM_BYTES;
    return {
      alphabet: 'base58',
      starts: base58Range(first ?? '', last ?? ''),
      lengths: [encodedLength(bytes)],
    };
  });
}
