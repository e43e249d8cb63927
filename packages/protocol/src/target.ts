/**
 * Targets and share difficulty in Stratum units: a difficulty-1 share is 2^32 expected hashes for
 * sha256d and 2^16 for scrypt (scrypt's diff-1 target is 2^16 times easier), as miners count them.
 */
import { ALGORITHM_TABLE, ALGORITHMS, type Algorithm } from './coin-table.js';

const MAX_TARGET = (1n << 256n) - 1n;

/** Lowest share difficulty ever sent, per algorithm (the coin table's `minShareDifficulty`). */
export const MIN_SHARE_DIFFICULTY = Object.fromEntries(
  ALGORITHMS.map((algorithm) => [algorithm, ALGORITHM_TABLE[algorithm].minShareDifficulty]),
) as Record<Algorithm, number>;

/** The share target of difficulty 1 (the coin table's `diff1Target`). */
export function diff1Target(algorithm: Algorithm): bigint {
  return ALGORITHM_TABLE[algorithm].diff1Target;
}

/** Exact fraction num/den of a positive finite double (den a power of two). */
function toFraction(value: number): { num: bigint; den: bigint } {
  let scaled = value;
  let shift = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    shift += 1n;
  }
  return { num: BigInt(scaled), den: 1n << shift };
}

/** Share target for a difficulty: diff1 / difficulty, between 1 and 2^256 - 1. */
export function difficultyToTarget(difficulty: number, algorithm: Algorithm): bigint {
  if (!Number.isFinite(difficulty) || difficulty <= 0) {
    throw new RangeError(`difficulty must be a positive finite number, got ${difficulty}`);
  }
  const { num, den } = toFraction(difficulty);
  const target = (diff1Target(algorithm) * den) / num;
  if (target > MAX_TARGET) return MAX_TARGET;
  return target < 1n ? 1n : target;
}

/** Difficulty of a target: diff1 / target, as a double. */
export function targetToDifficulty(target: bigint, algorithm: Algorithm): number {
  if (target <= 0n) throw new RangeError(`target must be positive, got ${target}`);
  const scaled = (diff1Target(algorithm) << 64n) / target;
  return Number(scaled) / 2 ** 64;
}

/** Compact nBits ("1d00ffff" or 0x1d00ffff) -> target. */
export function bitsToTarget(bits: string | number): bigint {
  const value = typeof bits === 'string' ? parseBits(bits) : bits;
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new RangeError(`invalid nBits: ${bits}`);
  const exponent = value >>> 24;
  const mantissa = value & 0x007fffff;
  if (mantissa !== 0 && (value & 0x00800000) !== 0) throw new RangeError(`negative nBits: ${bits}`);
  const target =
    exponent <= 3
      ? BigInt(mantissa >>> (8 * (3 - exponent)))
      : BigInt(mantissa) << BigInt(8 * (exponent - 3));
  if (target > MAX_TARGET) throw new RangeError(`nBits overflows 256 bits: ${bits}`);
  return target;
}

function parseBits(bits: string): number {
  if (!/^[0-9a-fA-F]{8}$/.test(bits)) throw new RangeError(`nBits must be 8 hex digits, got "${bits}"`);
  return Number.parseInt(bits, 16);
}

/** Target -> compact nBits as 8 lowercase hex digits (as getblocktemplate shows it). */
export function targetToBits(target: bigint): string {
  if (target <= 0n || target > MAX_TARGET) throw new RangeError(`target out of range: ${target}`);
  let size = Math.ceil(target.toString(16).length / 2);
  let mantissa =
    size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  if (mantissa & 0x00800000) {
    mantissa >>>= 8;
    size += 1;
  }
  return ((size << 24) | mantissa).toString(16).padStart(8, '0');
}

/** 32-byte hash in internal (little-endian) byte order -> integer to compare with a target. */
export function hashToBigInt(hashInternal: Buffer): bigint {
  if (hashInternal.length !== 32) throw new RangeError(`hash must be 32 bytes, got ${hashInternal.length}`);
  return (
    (hashInternal.readBigUInt64LE(24) << 192n) |
    (hashInternal.readBigUInt64LE(16) << 128n) |
    (hashInternal.readBigUInt64LE(8) << 64n) |
    hashInternal.readBigUInt64LE(0)
  );
}

/** Difficulty a hash actually met (diff1 / hash value), e.g. to show a share's or block's luck. */
export function hashDifficulty(hashValue: bigint, algorithm: Algorithm): number {
  return hashValue === 0n ? Number.POSITIVE_INFINITY : targetToDifficulty(hashValue, algorithm);
}

/** Expected hashes a miner computes per share at this stratum difficulty. */
export function expectedHashesPerShare(difficulty: number, algorithm: Algorithm): number {
  return difficulty * ALGORITHM_TABLE[algorithm].hashesPerDifficulty;
}

/** Network difficulty of nBits in this algorithm's stratum units (scrypt: 65536x Core's number). */
export function networkDifficulty(bits: string | number, algorithm: Algorithm): number {
  return targetToDifficulty(bitsToTarget(bits), algorithm);
}
