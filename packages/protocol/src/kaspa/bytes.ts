/** Byte helpers of the Kaspa module: strict hex and little-endian 64-bit words. */

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
export const U64_MAX = (1n << 64n) - 1n;

/** Even-length hex (either case) -> bytes; `bytes` fixes the length when given. */
export function hexToBytes(hex: string, what: string, bytes?: number): Uint8Array {
  if (typeof hex !== 'string' || !HEX.test(hex)) throw new RangeError(`${what} must be hex, got "${hex}"`);
  if (bytes !== undefined && hex.length !== bytes * 2)
    throw new RangeError(`${what} must be ${bytes} bytes of hex, got ${hex.length / 2}`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** An unsigned 64-bit value from what kaspad's RPC gives: a decimal string, a safe integer or a bigint. */
export function toU64(value: unknown, what: string): bigint {
  let result: bigint;
  if (typeof value === 'bigint') result = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) result = BigInt(value);
  else if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) result = BigInt(value);
  else throw new RangeError(`${what} must be an unsigned 64-bit integer, got ${String(value)}`);
  if (result < 0n || result > U64_MAX) throw new RangeError(`${what} is outside 64 bits: ${result}`);
  return result;
}

/** An unsigned integer of `bits` (16 or 32) bits, as a number. */
export function toUint(value: unknown, bits: 16 | 32, what: string): number {
  const n = typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= 2 ** bits)
    throw new RangeError(`${what} must be an unsigned ${bits}-bit integer, got ${String(value)}`);
  return n;
}

/** The four little-endian 32-bit words of bytes[offset..offset+32), into out[at..at+8). */
export function readWordsLE(bytes: Uint8Array, out: Uint32Array, at = 0): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < 8; i++) out[at + i] = view.getUint32(i * 4, true);
}

/** 32 bytes from eight little-endian 32-bit words. */
export function wordsToBytesLE(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(i * 4, words[i] ?? 0, true);
  return out;
}

/** Eight little-endian 32-bit words (least significant first) as one 256-bit number. */
export function wordsToBigInt(words: Uint32Array): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 32n) | BigInt(words[i] ?? 0);
  return value;
}

/** A 256-bit number as eight 32-bit words, least significant first (to compare without bigints). */
export function bigIntToWords(value: bigint): Uint32Array {
  if (value < 0n || value >= 1n << 256n) throw new RangeError(`not a 256-bit value: ${value}`);
  const words = new Uint32Array(8);
  for (let i = 0; i < 8; i++) words[i] = Number((value >> BigInt(32 * i)) & 0xffffffffn);
  return words;
}

/** a <= b for two 256-bit numbers held as eight little-endian words. */
export function wordsAtMost(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 7; i >= 0; i--) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return true;
}
