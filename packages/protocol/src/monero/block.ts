/**
 * Monero block blobs (as `get_block_template` returns them in `blocktemplate_blob`): parsing
 * enough to write a per-connection extra nonce into the reserved bytes of the miner
 * transaction's extra, and to build the hashing blob miners hash:
 *
 *   header (major, minor, timestamp varints; prev id 32 bytes; nonce 4 bytes little-endian)
 *   || tree hash over [miner tx hash, other tx hashes...] (32 bytes)
 *   || varint (number of transactions including the miner tx)
 *
 * See docs/MONERO.md for the byte-order facts.
 */
import { keccak256 } from './keccak.js';
import { treeHash } from './tree-hash.js';
import { decodeSmallVarint, decodeVarint, encodeVarint } from './varint.js';

const HASH_BYTES = 32;
const NONCE_BYTES = 4;
/** txin_gen: the miner transaction's only input. */
const TXIN_GEN = 0xff;
/** txout_to_key: a 32-byte one-time key. */
const TXOUT_TO_KEY = 0x02;
/** txout_to_tagged_key (hard fork 15): a 32-byte one-time key and a 1-byte view tag. */
const TXOUT_TO_TAGGED_KEY = 0x03;
/** rct::RCTTypeNull: the miner transaction's RingCT type (no signatures). */
const RCT_TYPE_NULL = 0;

export interface MoneroBlockHeader {
  majorVersion: number;
  minorVersion: number;
  timestamp: bigint;
  /** Previous block id, as the bytes appear in the blob (the same order monerod prints in hex). */
  prevId: Uint8Array;
  /** Where the 4 nonce bytes start, in the block blob and in the hashing blob alike. */
  nonceOffset: number;
  nonce: number;
}

export interface MoneroBlockTemplate {
  header: MoneroBlockHeader;
  /** Height written in the miner transaction's txin_gen. */
  height: bigint;
  /** Byte range of the miner transaction in the block blob. */
  minerTxStart: number;
  minerTxEnd: number;
  /** End of the miner transaction's prefix (start of its RingCT base; v2 only). */
  minerTxPrefixEnd: number;
  minerTxVersion: number;
  /** Byte range of the miner transaction's extra field (its bytes, after the length varint). */
  extraStart: number;
  extraEnd: number;
  /** The other transactions' hashes, in block order. */
  txHashes: Uint8Array[];
}

function need(blob: Uint8Array, offset: number, count: number, what: string): void {
  if (offset + count > blob.length) throw new RangeError(`block blob ends inside ${what} (byte ${offset})`);
}

/** Parses a block blob (block template or full block) as far as the pool needs it. */
export function parseMoneroBlock(blob: Uint8Array): MoneroBlockTemplate {
  let at = 0;
  const major = decodeSmallVarint(blob, at);
  const minor = decodeSmallVarint(blob, major.next);
  const timestamp = decodeVarint(blob, minor.next);
  at = timestamp.next;
  need(blob, at, HASH_BYTES + NONCE_BYTES, 'the header');
  const prevId = blob.slice(at, at + HASH_BYTES);
  const nonceOffset = at + HASH_BYTES;
  const nonce = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(nonceOffset, true);
  const minerTxStart = nonceOffset + NONCE_BYTES;

  const version = decodeSmallVarint(blob, minerTxStart);
  const unlockTime = decodeVarint(blob, version.next);
  const inputs = decodeSmallVarint(blob, unlockTime.next);
  if (inputs.value !== 1) throw new RangeError(`the miner transaction has ${inputs.value} inputs, not 1`);
  at = inputs.next;
  need(blob, at, 1, 'the miner input');
  if (blob[at] !== TXIN_GEN) throw new RangeError(`the miner input is not txin_gen (tag ${blob[at]})`);
  const height = decodeVarint(blob, at + 1);
  const outputs = decodeSmallVarint(blob, height.next);
  at = outputs.next;
  for (let i = 0; i < outputs.value; i++) {
    at = decodeVarint(blob, at).next; // amount
    need(blob, at, 1, 'an output');
    const tag = blob[at];
    const size = tag === TXOUT_TO_KEY ? HASH_BYTES : tag === TXOUT_TO_TAGGED_KEY ? HASH_BYTES + 1 : undefined;
    if (size === undefined) throw new RangeError(`unknown miner output type ${tag}`);
    need(blob, at + 1, size, 'an output');
    at += 1 + size;
  }
  const extraSize = decodeSmallVarint(blob, at);
  const extraStart = extraSize.next;
  const extraEnd = extraStart + extraSize.value;
  need(blob, extraStart, extraSize.value, 'the miner extra');
  const minerTxPrefixEnd = extraEnd;
  let minerTxEnd = minerTxPrefixEnd;
  if (version.value >= 2) {
    need(blob, minerTxPrefixEnd, 1, 'the RingCT type');
    if (blob[minerTxPrefixEnd] !== RCT_TYPE_NULL) {
      throw new RangeError(`the miner transaction's RingCT type is ${blob[minerTxPrefixEnd]}, not null`);
    }
    minerTxEnd = minerTxPrefixEnd + 1;
  }

  const txCount = decodeSmallVarint(blob, minerTxEnd);
  at = txCount.next;
  need(blob, at, txCount.value * HASH_BYTES, 'the transaction hashes');
  const txHashes: Uint8Array[] = [];
  for (let i = 0; i < txCount.value; i++, at += HASH_BYTES) txHashes.push(blob.slice(at, at + HASH_BYTES));
  if (at !== blob.length) throw new RangeError(`${blob.length - at} bytes after the transaction hashes`);

  return {
    header: {
      majorVersion: major.value,
      minorVersion: minor.value,
      timestamp: timestamp.value,
      prevId,
      nonceOffset,
      nonce,
    },
    height: height.value,
    minerTxStart,
    minerTxEnd,
    minerTxPrefixEnd,
    minerTxVersion: version.value,
    extraStart,
    extraEnd,
    txHashes,
  };
}

/**
 * The miner transaction's hash. Version 2: Keccak(prefix hash || Keccak(RingCT base) || 32 zero
 * bytes), the zero hash standing for the empty prunable part of RCTTypeNull. Version 1:
 * Keccak of the whole transaction.
 */
export function moneroMinerTxHash(blob: Uint8Array, block: MoneroBlockTemplate): Uint8Array {
  if (block.minerTxVersion < 2) return keccak256(blob.subarray(block.minerTxStart, block.minerTxEnd));
  const prefixHash = keccak256(blob.subarray(block.minerTxStart, block.minerTxPrefixEnd));
  const baseHash = keccak256(blob.subarray(block.minerTxPrefixEnd, block.minerTxEnd));
  return keccak256(prefixHash, baseHash, new Uint8Array(HASH_BYTES));
}

/** The blob miners hash (75 bytes + the count varint today); its nonce sits at `header.nonceOffset`. */
export function moneroHashingBlob(
  blob: Uint8Array,
  block: MoneroBlockTemplate = parseMoneroBlock(blob),
): Uint8Array {
  const root = treeHash([moneroMinerTxHash(blob, block), ...block.txHashes]);
  const count = encodeVarint(block.txHashes.length + 1);
  const out = new Uint8Array(block.minerTxStart + HASH_BYTES + count.length);
  out.set(blob.subarray(0, block.minerTxStart), 0);
  out.set(root, block.minerTxStart);
  out.set(count, block.minerTxStart + HASH_BYTES);
  return out;
}

/**
 * A copy of the template blob with `extraNonce` written at `reservedOffset` (get_block_template's
 * `reserved_offset`). The bytes must lie inside the reserved area of the miner extra.
 */
export function writeMoneroExtraNonce(
  blob: Uint8Array,
  reservedOffset: number,
  reserveSize: number,
  extraNonce: Uint8Array,
): Uint8Array {
  if (extraNonce.length > reserveSize) {
    throw new RangeError(`extra nonce of ${extraNonce.length} bytes exceeds the ${reserveSize} reserved`);
  }
  const block = parseMoneroBlock(blob);
  if (reservedOffset < block.extraStart || reservedOffset + reserveSize > block.extraEnd) {
    throw new RangeError('the reserved bytes are not inside the miner transaction extra');
  }
  const out = Uint8Array.from(blob);
  out.set(extraNonce, reservedOffset);
  return out;
}

/** A copy of a block or hashing blob with the 32-bit nonce written little-endian at `nonceOffset`. */
export function withMoneroNonce(blob: Uint8Array, nonceOffset: number, nonce: number): Uint8Array {
  if (!Number.isInteger(nonce) || nonce < 0 || nonce > 0xffffffff) throw new RangeError('nonce is a uint32');
  const out = Uint8Array.from(blob);
  new DataView(out.buffer).setUint32(nonceOffset, nonce, true);
  return out;
}

/** The block id: Keccak(varint(length of the hashing blob) || hashing blob). */
export function moneroBlockId(hashingBlob: Uint8Array): Uint8Array {
  return keccak256(encodeVarint(hashingBlob.length), hashingBlob);
}

/** RandomX epochs: the key block changes every 2048 blocks, 64 blocks after the epoch boundary. */
export const RANDOMX_SEEDHASH_EPOCH_BLOCKS = 2048;
export const RANDOMX_SEEDHASH_EPOCH_LAG = 64;

/** Height of the block whose id is the RandomX seed for a block at `height` (monerod's rx_seedheight). */
export function randomxSeedHeight(height: number): number {
  if (height <= RANDOMX_SEEDHASH_EPOCH_BLOCKS + RANDOMX_SEEDHASH_EPOCH_LAG) return 0;
  const lagged = height - RANDOMX_SEEDHASH_EPOCH_LAG - 1;
  return lagged - (lagged % RANDOMX_SEEDHASH_EPOCH_BLOCKS);
}
