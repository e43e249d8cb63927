/**
 * Kaspa Stratum shapes, as Kaspa miners and kaspa-stratum-bridge speak them (facts checked
 * against onemorebsmith/kaspa-stratum-bridge src/kaspastratum/hasher.go, share_handler.go and
 * its stratum_test.go vectors):
 * - share difficulty 1 = target 2^224 - 1 (the bridge's maxTarget, 56 hex f's): a share of
 *   difficulty D has target floor((2^224 - 1) / D) and takes 2^32 * D hashes on average;
 * - `mining.notify [jobId, [w0, w1, w2, w3], timestamp]`: the pre-PoW hash as four u64 read
 *   little-endian, sent as bare JSON integers (lolMiner, SRBMiner, GPU miners);
 * - `mining.notify [jobId, hex80]`, the "big job" (BzMiner, IceRiver): the 32 pre-PoW hash bytes
 *   in order, then the timestamp as u64 little-endian: 40 bytes, 80 hex digits;
 * - `mining.submit [worker, jobId, nonce]`: the nonce as hex (with or without 0x), read as a
 *   big-endian 64-bit number whose leading hex digits are the session's extranonce; a miner
 *   may send only the digits after the extranonce.
 */
import { ALGORITHM_TABLE } from '../coin-table.js';
import { STRATUM_ERROR, stratumError, type Parsed } from '../stratum.js';
import { diff1Target, difficultyToTarget, targetToDifficulty } from '../target.js';
import { bytesToHex, U64_MAX } from './bytes.js';

/** Difficulty 1's target and hashes per difficulty are the coin table's (target.ts, coin-table.ts). */
export const KASPA_DIFF1_TARGET = diff1Target('kheavyhash');
/** Expected kHeavyHash evaluations per unit of Stratum difficulty. */
export const KASPA_HASHES_PER_DIFFICULTY = ALGORITHM_TABLE.kheavyhash.hashesPerDifficulty;

/** Share target of a Stratum difficulty: floor(diff1 / difficulty), clamped to 1..2^256-1. */
export function kaspaShareTarget(difficulty: number): bigint {
  return difficultyToTarget(difficulty, 'kheavyhash');
}

/** Stratum difficulty of a target (a network target, or the value a share reached). */
export function kaspaTargetDifficulty(target: bigint): number {
  return target <= 0n ? Number.POSITIVE_INFINITY : targetToDifficulty(target, 'kheavyhash');
}

const DIFF1_NUMBER = Number(KASPA_DIFF1_TARGET);

/**
 * kaspaTargetDifficulty of a PoW value given as eight little-endian 32-bit words (kaspaPowWordsOf),
 * in floating point: the share path's "difficulty reached" without building a BigInt per share.
 */
export function kaspaWordsDifficulty(words: Uint32Array): number {
  let value = 0;
  for (let i = 7; i >= 0; i--) value = value * 2 ** 32 + (words[i] ?? 0);
  return value === 0 ? Number.POSITIVE_INFINITY : DIFF1_NUMBER / value;
}

/** The four u64 words of the plain notify: the pre-PoW hash read as little-endian u64s. */
export function kaspaJobWords(prePow: Uint8Array): [bigint, bigint, bigint, bigint] {
  if (prePow.length !== 32) throw new RangeError(`pre-PoW hash must be 32 bytes, got ${prePow.length}`);
  const view = new DataView(prePow.buffer, prePow.byteOffset, 32);
  return [0, 8, 16, 24].map((at) => view.getBigUint64(at, true)) as [bigint, bigint, bigint, bigint];
}

/** The 80-hex "big job": pre-PoW hash bytes in order, then the timestamp as u64 LE. */
export function kaspaBigJobHex(prePow: Uint8Array, timestamp: bigint): string {
  if (prePow.length !== 32) throw new RangeError(`pre-PoW hash must be 32 bytes, got ${prePow.length}`);
  if (timestamp < 0n || timestamp > U64_MAX) throw new RangeError(`timestamp outside 64 bits: ${timestamp}`);
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setBigUint64(0, timestamp, true);
  return bytesToHex(prePow) + bytesToHex(tail);
}

export const KASPA_NOTIFY_FORMS = ['words', 'big-job'] as const;
export type KaspaNotifyForm = (typeof KASPA_NOTIFY_FORMS)[number];

/**
 * The `params` of mining.notify as JSON text. The words exceed 2^53, so they are written as
 * bare integers here (JSON.stringify cannot); the dialect splices this text into its line.
 */
export function kaspaNotifyParamsJson(
  form: KaspaNotifyForm,
  jobId: string,
  prePow: Uint8Array,
  timestamp: bigint,
): string {
  if (form === 'big-job') return JSON.stringify([jobId, kaspaBigJobHex(prePow, timestamp)]);
  const words = kaspaJobWords(prePow).join(',');
  return `[${JSON.stringify(jobId)},[${words}],${timestamp.toString()}]`;
}

const NONCE_HEX = /^[0-9a-fA-F]{1,16}$/;
const EXTRANONCE_HEX = /^(?:[0-9a-fA-F]{2}){0,7}$/;

function malformed(message: string): Parsed<KaspaNonce> {
  return { ok: false, error: stratumError(STRATUM_ERROR.OTHER, message) };
}

/**
 * A submitted 64-bit nonce in the forms the share path uses without BigInt: its 16 lowercase hex
 * digits (the key duplicates are judged by) and its low and high 32 bits (kaspaPowWordsOf).
 */
export interface KaspaNonce {
  readonly hex: string;
  readonly lo: number;
  readonly hi: number;
}

/** The nonce as the 64-bit number the block header carries. */
export function kaspaNonceValue(nonce: KaspaNonce): bigint {
  return BigInt(`0x${nonce.hex}`);
}

/**
 * The 64-bit nonce of a mining.submit. A nonce of at most 16 - len(extranonce) digits is the
 * miner's part: the extranonce goes in front of it (zero-padded), as kaspa-stratum-bridge does.
 * A longer one is the whole nonce and must begin with the session's extranonce, so no two
 * sessions can submit the same work (stricter than the bridge, which does not check).
 */
export function parseKaspaSubmitNonce(nonce: unknown, extranonceHex: string): Parsed<KaspaNonce> {
  if (!EXTRANONCE_HEX.test(extranonceHex)) throw new RangeError(`bad extranonce "${extranonceHex}"`);
  if (typeof nonce !== 'string') return malformed('Nonce must be a hex string');
  const digits = nonce.startsWith('0x') || nonce.startsWith('0X') ? nonce.slice(2) : nonce;
  if (!NONCE_HEX.test(digits)) return malformed('Nonce must be 1 to 16 hex digits');
  const extranonce = extranonceHex.toLowerCase();
  const minerDigits = 16 - extranonce.length;
  let hex: string;
  if (digits.length <= minerDigits) hex = extranonce + digits.toLowerCase().padStart(minerDigits, '0');
  else {
    hex = digits.toLowerCase().padStart(16, '0');
    if (!hex.startsWith(extranonce)) return malformed('Nonce does not start with the extranonce');
  }
  return {
    ok: true,
    value: { hex, lo: Number.parseInt(hex.slice(8), 16), hi: Number.parseInt(hex.slice(0, 8), 16) },
  };
}
