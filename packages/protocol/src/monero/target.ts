/**
 * Monero difficulty and Stratum targets. Difficulty is an integer; a hash meets difficulty D when
 * the hash, read as a 256-bit little-endian number, times D is below 2^256 (monerod check_hash).
 * One hash per unit of difficulty on average.
 *
 * The Stratum `target` miners receive (XMRig and others) is hex of a little-endian integer:
 * 4 bytes (compact) or 8 bytes. Miners compare the hash's last 8 bytes,
 * read as a little-endian uint64, with the 64-bit target (a 4-byte target t stands for
 * floor((2^64 - 1) / floor((2^32 - 1) / t))).
 */

const MAX32 = 0xffffffffn;
const MAX64 = 0xffffffffffffffffn;
const TWO_256 = 1n << 256n;

function littleEndianHex(value: bigint, bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i++)
    hex += Number((value >> BigInt(8 * i)) & 0xffn)
      .toString(16)
      .padStart(2, '0');
  return hex;
}

function readLittleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] as number);
  return value;
}

/**
 * Highest difficulty sent as a compact 4-byte target. The compact form's read-back is off by up
 * to difficulty / 2^32 (relative), so above 2^24 (0.4 %) the exact 8-byte form is sent.
 */
export const MONERO_COMPACT_TARGET_MAX_DIFFICULTY = 1n << 24n;

/**
 * The Stratum target for a share difficulty: 8 hex digits up to 2^24, else 16. Judge the shares
 * with `moneroTargetToDifficulty(target)`, the difficulty the miner actually works to.
 */
export function moneroDifficultyToTarget(difficulty: bigint): string {
  if (difficulty < 1n) throw new RangeError('Monero difficulty is at least 1');
  if (difficulty <= MONERO_COMPACT_TARGET_MAX_DIFFICULTY) return littleEndianHex(MAX32 / difficulty, 4);
  return littleEndianHex(MAX64 / difficulty, 8);
}

/** The difficulty a miner works to for a Stratum target (as XMRig reads it). */
export function moneroTargetToDifficulty(target: string): bigint {
  if (!/^([0-9a-fA-F]{8}|[0-9a-fA-F]{16})$/.test(target)) {
    throw new RangeError('a Monero Stratum target is 8 or 16 hex digits');
  }
  const raw = readLittleEndian(Uint8Array.from(Buffer.from(target, 'hex')));
  if (raw === 0n) throw new RangeError('a Monero Stratum target is never zero');
  const target64 = target.length === 8 ? MAX64 / (MAX32 / raw) : raw;
  return MAX64 / target64;
}

/** The hash (32 bytes, as RandomX returns it) as the little-endian 256-bit number monerod compares. */
export function moneroHashValue(hash: Uint8Array): bigint {
  if (hash.length !== 32) throw new RangeError('a Monero PoW hash is 32 bytes');
  return readLittleEndian(hash);
}

/** monerod's check_hash: hash × difficulty < 2^256. */
export function moneroHashMeetsDifficulty(hash: Uint8Array, difficulty: bigint): boolean {
  return moneroHashValue(hash) * difficulty < TWO_256;
}

/** The highest difficulty the hash meets: floor((2^256 - 1) / hash). */
export function moneroHashDifficulty(hash: Uint8Array): bigint {
  const value = moneroHashValue(hash);
  return value === 0n ? TWO_256 - 1n : (TWO_256 - 1n) / value;
}
