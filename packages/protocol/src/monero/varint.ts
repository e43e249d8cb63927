/** Monero's varint: 7 bits per byte, least significant group first, high bit = more bytes follow. */

/** The varint bytes of a non-negative integer. */
export function encodeVarint(value: bigint | number): Uint8Array {
  let rest = BigInt(value);
  if (rest < 0n) throw new RangeError('a varint is never negative');
  const bytes: number[] = [];
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return Uint8Array.from(bytes);
}

/** Reads the varint at `offset`; `next` is the offset of the byte after it. */
export function decodeVarint(bytes: Uint8Array, offset: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = offset; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    // Monero rejects non-canonical encodings (a last byte of 0 after the first).
    if (byte === 0 && i > offset) throw new RangeError(`non-canonical varint at byte ${offset}`);
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    shift += 7n;
    if (shift > 63n) throw new RangeError(`varint longer than 64 bits at byte ${offset}`);
  }
  throw new RangeError(`varint runs past the end of the data at byte ${offset}`);
}

/** `decodeVarint` for values that must fit a JavaScript number (counts, sizes, versions). */
export function decodeSmallVarint(bytes: Uint8Array, offset: number): { value: number; next: number } {
  const { value, next } = decodeVarint(bytes, offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`varint too large at byte ${offset}`);
  return { value: Number(value), next };
}
