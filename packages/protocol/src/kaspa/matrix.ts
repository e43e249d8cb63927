/**
 * kHeavyHash's matrix (kaspad domain/consensus/utils/pow/heavyhash.go, xoshiro.go): 64x64
 * values of 4 bits drawn from xoshiro256++ seeded with the pre-PoW hash as four u64 LE words,
 * each u64 filling 16 entries of a row from its low nibble up; drawn again until the rank is 64.
 * The rank is computed as kaspad computes it (float64 Gaussian elimination, eps 1e-9), so a
 * matrix kaspad redraws is redrawn here too.
 */

const MASK64 = (1n << 64n) - 1n;
export const MATRIX_SIZE = 64;
const EPS = 1e-9;

function rotl64(x: bigint, k: bigint): bigint {
  return ((x << k) | (x >> (64n - k))) & MASK64;
}

/** xoshiro256++ (Blackman & Vigna) over four 64-bit words. */
export class Xoshiro256PlusPlus {
  private s0: bigint;
  private s1: bigint;
  private s2: bigint;
  private s3: bigint;

  constructor(s0: bigint, s1: bigint, s2: bigint, s3: bigint) {
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  static fromHash(hash: Uint8Array): Xoshiro256PlusPlus {
    if (hash.length !== 32) throw new RangeError(`seed must be 32 bytes, got ${hash.length}`);
    const view = new DataView(hash.buffer, hash.byteOffset, 32);
    return new Xoshiro256PlusPlus(
      view.getBigUint64(0, true),
      view.getBigUint64(8, true),
      view.getBigUint64(16, true),
      view.getBigUint64(24, true),
    );
  }

  next(): bigint {
    const result = (rotl64((this.s0 + this.s3) & MASK64, 23n) + this.s0) & MASK64;
    const t = (this.s1 << 17n) & MASK64;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl64(this.s3, 45n);
    return result;
  }
}

/** Rank of a 64x64 matrix (row-major), by kaspad's float elimination. */
export function matrixRank(matrix: Uint8Array): number {
  const b = Float64Array.from(matrix);
  const rowSelected = new Uint8Array(MATRIX_SIZE);
  let rank = 0;
  for (let i = 0; i < MATRIX_SIZE; i++) {
    let j = 0;
    while (j < MATRIX_SIZE && (rowSelected[j] === 1 || Math.abs(b[j * 64 + i] ?? 0) <= EPS)) j++;
    if (j === MATRIX_SIZE) continue;
    rank++;
    rowSelected[j] = 1;
    const pivot = b[j * 64 + i] ?? 0;
    for (let p = i + 1; p < MATRIX_SIZE; p++) b[j * 64 + p] = (b[j * 64 + p] ?? 0) / pivot;
    for (let k = 0; k < MATRIX_SIZE; k++) {
      const factor = b[k * 64 + i] ?? 0;
      if (k === j || Math.abs(factor) <= EPS) continue;
      for (let p = i + 1; p < MATRIX_SIZE; p++)
        b[k * 64 + p] = (b[k * 64 + p] ?? 0) - (b[j * 64 + p] ?? 0) * factor;
    }
  }
  return rank;
}

/** The full-rank matrix of a pre-PoW hash, row-major, one entry (0..15) per byte. */
export function generateKaspaMatrix(prePowHash: Uint8Array): Uint8Array {
  // An all-zero seed is xoshiro's fixed point: every draw is 0 and no redraw ever reaches rank
  // 64 (kaspad would loop forever; a BLAKE2b output is never all zeros in practice).
  if (prePowHash.every((b) => b === 0)) throw new RangeError('pre-PoW hash of all zeros has no matrix');
  const rng = Xoshiro256PlusPlus.fromHash(prePowHash);
  const matrix = new Uint8Array(MATRIX_SIZE * MATRIX_SIZE);
  for (;;) {
    for (let at = 0; at < matrix.length; at += 16) {
      const value = rng.next();
      const lo = Number(value & 0xffffffffn);
      const hi = Number(value >> 32n);
      for (let shift = 0; shift < 8; shift++) {
        matrix[at + shift] = (lo >>> (4 * shift)) & 0x0f;
        matrix[at + 8 + shift] = (hi >>> (4 * shift)) & 0x0f;
      }
    }
    if (matrixRank(matrix) === MATRIX_SIZE) return matrix;
  }
}

/**
 * Rows 2k and 2k+1 packed into one int32 per column (low and high 16 bits): a row's sum of 64
 * products of 4-bit values is at most 64 * 15 * 15 = 14400 < 2^16, so one multiply-add serves
 * two rows without carries, and the high sum (< 14400 * 2^16 + 14400 < 2^31) stays an int32.
 * Output byte k of the heavy hash comes from exactly rows 2k and 2k+1.
 */
export function packMatrixRowPairs(matrix: Uint8Array): Int32Array {
  if (matrix.length !== MATRIX_SIZE * MATRIX_SIZE) throw new RangeError('matrix must be 64x64');
  const packed = new Int32Array((MATRIX_SIZE / 2) * MATRIX_SIZE);
  for (let k = 0; k < MATRIX_SIZE / 2; k++) {
    for (let j = 0; j < MATRIX_SIZE; j++) {
      const even = matrix[2 * k * 64 + j] ?? 0;
      const odd = matrix[(2 * k + 1) * 64 + j] ?? 0;
      packed[k * 64 + j] = even | (odd << 16);
    }
  }
  return packed;
}
