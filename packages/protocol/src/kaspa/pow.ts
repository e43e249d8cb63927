/**
 * Kaspa proof of work, kHeavyHash (kaspad domain/consensus/utils/pow/pow.go, heavyhash.go):
 *   powHash  = cSHAKE256(S = "ProofOfWorkHash", prePow ‖ timestamp u64 LE ‖ 32 zero bytes ‖ nonce u64 LE)
 *   product  = matrix × (powHash as 64 nibbles, high nibble of each byte first), each sum >> 10
 *   heavy    = cSHAKE256(S = "HeavyHash", powHash XOR product nibbles packed back into bytes)
 *   PoW value = heavy read as a little-endian 256-bit number; a block needs value <= target(bits).
 *
 * Speed: both cSHAKE inputs (80 and 32 bytes) fit in one 136-byte Keccak block, and the block
 * that cSHAKE absorbs first (its encoded name S) is the same for every hash; so the state after
 * it is computed once per name, the job's bytes (prePow, timestamp) are laid into a per-job state
 * once, and a nonce costs two Keccak-f[1600] permutations (@noble/hashes' keccakP) plus the
 * matrix product on row pairs (matrix.ts). A per-job KaspaPowState holds all of it.
 */
import { keccakP } from '@noble/hashes/sha3';
import { bitsToTarget, targetToBits } from '../target.js';
import { bigIntToWords, readWordsLE, U64_MAX, wordsAtMost, wordsToBigInt, wordsToBytesLE } from './bytes.js';
import { generateKaspaMatrix, packMatrixRowPairs } from './matrix.js';

const STATE_WORDS = 50;
const RATE_BYTES = 136;
/** cSHAKE's domain-separation pad byte (bits 00) and the final bit of the rate block. */
const CSHAKE_PAD = 0x04;
const LAST_RATE_WORD = RATE_BYTES / 4 - 1;
const LAST_BIT = 0x80000000;

function leftEncode(value: number): number[] {
  const bytes: number[] = [];
  for (let v = value; v > 0 || bytes.length === 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return [bytes.length, ...bytes];
}

/** Keccak state (as LE 32-bit words) after cSHAKE256 absorbed bytepad(encode_string("") ‖ encode_string(S), 136). */
export function cshake256PrefixState(personalization: string): Uint32Array {
  const name = new TextEncoder().encode(personalization);
  const prefix = [...leftEncode(RATE_BYTES), ...leftEncode(0), ...leftEncode(name.length * 8), ...name];
  if (prefix.length > RATE_BYTES) throw new RangeError('personalization longer than one block');
  const block = new Uint8Array(RATE_BYTES);
  block.set(prefix);
  const view = new DataView(block.buffer);
  const state = new Uint32Array(STATE_WORDS);
  for (let i = 0; i < RATE_BYTES / 4; i++) state[i] = view.getUint32(i * 4, true);
  keccakP(state);
  return state;
}

/** Add cSHAKE's padding for a one-block message of `length` bytes (length < 136). */
function addPadding(state: Uint32Array, length: number): void {
  state[length >>> 2] = (state[length >>> 2] ?? 0) ^ (CSHAKE_PAD << ((length & 3) * 8));
  state[LAST_RATE_WORD] = (state[LAST_RATE_WORD] ?? 0) ^ LAST_BIT;
}

const POW_PREFIX = cshake256PrefixState('ProofOfWorkHash');
const HEAVY_BASE = cshake256PrefixState('HeavyHash');
addPadding(HEAVY_BASE, 32);
/** Words 18..19 of the PoW message hold the nonce (bytes 72..79). */
const NONCE_WORD = 18;

/** Everything of a job that does not depend on the nonce. */
export interface KaspaPowState {
  readonly prePow: Uint8Array;
  readonly timestamp: bigint;
  /** 64x64 entries of 4 bits, row-major. */
  readonly matrix: Uint8Array;
  /** cSHAKE("ProofOfWorkHash") state with prePow, timestamp, zeros and padding laid in. */
  readonly powBase: Uint32Array;
  /** The matrix as row pairs (packMatrixRowPairs). */
  readonly rowPairs: Int32Array;
}

export function kaspaPowState(prePow: Uint8Array, timestamp: bigint): KaspaPowState {
  if (prePow.length !== 32) throw new RangeError(`pre-PoW hash must be 32 bytes, got ${prePow.length}`);
  if (timestamp < 0n || timestamp > U64_MAX) throw new RangeError(`timestamp outside 64 bits: ${timestamp}`);
  const message = new Uint32Array(STATE_WORDS);
  readWordsLE(prePow, message, 0);
  message[8] = Number(timestamp & 0xffffffffn);
  message[9] = Number(timestamp >> 32n);
  const powBase = POW_PREFIX.slice();
  for (let i = 0; i < 10; i++) powBase[i] = (powBase[i] ?? 0) ^ (message[i] ?? 0);
  addPadding(powBase, 80);
  const matrix = generateKaspaMatrix(prePow);
  return { prePow: prePow.slice(), timestamp, matrix, powBase, rowPairs: packMatrixRowPairs(matrix) };
}

const work = new Uint32Array(STATE_WORDS);
const nibbles = new Int32Array(64);

/**
 * kHeavyHash of one nonce given as its low and high 32 bits; the result (PoW hash bytes as
 * eight LE words, least significant first) goes to `out`. The hot path: no allocation.
 */
export function kaspaPowWordsOf(
  state: KaspaPowState,
  nonceLo: number,
  nonceHi: number,
  out: Uint32Array,
): void {
  work.set(state.powBase);
  work[NONCE_WORD] = (work[NONCE_WORD] ?? 0) ^ nonceLo;
  work[NONCE_WORD + 1] = (work[NONCE_WORD + 1] ?? 0) ^ nonceHi;
  keccakP(work);
  for (let i = 0; i < 32; i++) {
    const byte = ((work[i >>> 2] ?? 0) >>> ((i & 3) << 3)) & 0xff;
    nibbles[2 * i] = byte >>> 4;
    nibbles[2 * i + 1] = byte & 0x0f;
  }
  const pairs = state.rowPairs;
  out.set(HEAVY_BASE.subarray(0, 8));
  for (let k = 0; k < 32; k++) {
    let sum = 0;
    const row = k * 64;
    for (let j = 0; j < 64; j++) sum += (pairs[row + j] ?? 0) * (nibbles[j] ?? 0);
    const product = (((sum & 0xffff) >>> 10) << 4) | (sum >>> 26);
    const byte = (((nibbles[2 * k] ?? 0) << 4) | (nibbles[2 * k + 1] ?? 0)) ^ product;
    out[k >>> 2] = (out[k >>> 2] ?? 0) ^ (byte << ((k & 3) << 3));
  }
  work.set(HEAVY_BASE);
  for (let i = 0; i < 8; i++) work[i] = out[i] ?? 0;
  keccakP(work);
  for (let i = 0; i < 8; i++) out[i] = work[i] ?? 0;
}

function splitNonce(nonce: bigint): [number, number] {
  if (nonce < 0n || nonce > U64_MAX) throw new RangeError(`nonce outside 64 bits: ${nonce}`);
  return [Number(nonce & 0xffffffffn), Number(nonce >> 32n)];
}

/** kHeavyHash of a nonce as eight LE words (fresh array). */
export function kaspaPowWords(state: KaspaPowState, nonce: bigint): Uint32Array {
  const out = new Uint32Array(8);
  const [lo, hi] = splitNonce(nonce);
  kaspaPowWordsOf(state, lo, hi, out);
  return out;
}

/** The kHeavyHash bytes of a nonce (as kaspad's DomainHash). */
export function kaspaPowHash(state: KaspaPowState, nonce: bigint): Uint8Array {
  return wordsToBytesLE(kaspaPowWords(state, nonce));
}

/** The PoW value: kHeavyHash as a little-endian 256-bit number. */
export function kaspaPowValue(state: KaspaPowState, nonce: bigint): bigint {
  return wordsToBigInt(kaspaPowWords(state, nonce));
}

/** A target prepared for comparison in the hot path (see kaspaPowWordsOf). */
export function kaspaTargetWords(target: bigint): Uint32Array {
  return bigIntToWords(target);
}

/** PoW words at or below the target words (kaspad: powNum.Cmp(target) <= 0). */
export function kaspaMeetsTarget(powWords: Uint32Array, targetWords: Uint32Array): boolean {
  return wordsAtMost(powWords, targetWords);
}

/** Compact `bits` -> target (difficulty.CompactToBig; the same compact form as Bitcoin's nBits). */
export function kaspaBitsToTarget(bits: number): bigint {
  return bitsToTarget(bits);
}

/** Target -> compact `bits` (difficulty.BigToCompact). */
export function kaspaTargetToBits(target: bigint): number {
  return Number.parseInt(targetToBits(target), 16);
}
