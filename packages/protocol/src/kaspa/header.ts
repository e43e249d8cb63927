/**
 * The Kaspa block header, its serialization exactly as kaspad hashes it
 * (domain/consensus/utils/consensushashing/block.go, serialization/common.go) and the block
 * hash: BLAKE2b-256 keyed with "BlockHash" (utils/hashes/domains.go).
 *
 * Serialized, all integers little-endian: version u16, number of parent levels u64, per level
 * (count u64, each 32-byte hash), hashMerkleRoot, acceptedIdMerkleRoot, utxoCommitment,
 * timestamp (ms) u64, bits u32, nonce u64, daaScore u64, blueScore u64, blueWork as its
 * minimal big-endian bytes (big.Int.Bytes(): none for 0) behind a u64 length, pruningPoint.
 * Note blueScore comes before blueWork here, while the RPC lists them the other way round.
 * Hashes are written and shown in the same byte order (kaspad prints hashes unreversed).
 */
import { blake2b } from '@noble/hashes/blake2';
import { bytesToHex, hexToBytes, toU64, toUint } from './bytes.js';

export interface KaspaHeader {
  version: number;
  /** Parent hashes by block level (level 0 = direct parents). */
  parents: Uint8Array[][];
  hashMerkleRoot: Uint8Array;
  acceptedIdMerkleRoot: Uint8Array;
  utxoCommitment: Uint8Array;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  bits: number;
  nonce: bigint;
  daaScore: bigint;
  blueWork: bigint;
  blueScore: bigint;
  pruningPoint: Uint8Array;
}

/**
 * The header as kaspad's gRPC/JSON API carries it (protowire RpcBlockHeader). 64-bit fields may be
 * decimal strings (@grpc/proto-loader with `longs: String`), safe integers or bigints; a Long
 * object is not accepted, so load the .proto with `longs: String`.
 */
export interface RpcBlockHeader {
  version: number | string;
  parents: { parentHashes: string[] }[];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  timestamp: string | number | bigint;
  bits: number | string;
  nonce: string | number | bigint;
  daaScore: string | number | bigint;
  /** Hex without leading zeros (big.Int.Text(16)). */
  blueWork: string;
  blueScore: string | number | bigint;
  pruningPoint: string;
}

const BLOCK_HASH_KEY = new TextEncoder().encode('BlockHash');
const HASH_BYTES = 32;

function blueWorkBytes(blueWork: bigint): Uint8Array {
  if (blueWork < 0n) throw new RangeError(`blueWork must not be negative: ${blueWork}`);
  if (blueWork === 0n) return new Uint8Array(0);
  const hex = blueWork.toString(16);
  return hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`, 'blueWork');
}

function checkHash(hash: Uint8Array, what: string): Uint8Array {
  if (hash.length !== HASH_BYTES) throw new RangeError(`${what} must be 32 bytes, got ${hash.length}`);
  return hash;
}

/** kaspad's header serialization, optionally with timestamp and nonce replaced (0 for pre-PoW). */
export function serializeKaspaHeader(
  header: KaspaHeader,
  override?: { timestamp: bigint; nonce: bigint },
): Uint8Array {
  const work = blueWorkBytes(header.blueWork);
  const parentBytes = header.parents.reduce((n, level) => n + 8 + level.length * HASH_BYTES, 0);
  // version, level count, parents, three roots, timestamp, bits, nonce + daaScore + blueScore +
  // blueWork length, blueWork, pruningPoint.
  const out = new Uint8Array(2 + 8 + parentBytes + 3 * HASH_BYTES + 8 + 4 + 4 * 8 + work.length + HASH_BYTES);
  const view = new DataView(out.buffer);
  let at = 0;
  const u64 = (value: bigint): void => {
    view.setBigUint64(at, value, true);
    at += 8;
  };
  const hash = (value: Uint8Array, what: string): void => {
    out.set(checkHash(value, what), at);
    at += HASH_BYTES;
  };
  view.setUint16(at, header.version, true);
  at += 2;
  u64(BigInt(header.parents.length));
  for (const level of header.parents) {
    u64(BigInt(level.length));
    for (const parent of level) hash(parent, 'parent hash');
  }
  hash(header.hashMerkleRoot, 'hashMerkleRoot');
  hash(header.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot');
  hash(header.utxoCommitment, 'utxoCommitment');
  u64(override ? override.timestamp : header.timestamp);
  view.setUint32(at, header.bits, true);
  at += 4;
  u64(override ? override.nonce : header.nonce);
  u64(header.daaScore);
  u64(header.blueScore);
  u64(BigInt(work.length));
  out.set(work, at);
  at += work.length;
  hash(header.pruningPoint, 'pruningPoint');
  if (at !== out.length) throw new Error(`header serialized to ${at} of ${out.length} bytes`);
  return out;
}

/** The block hash kaspad shows for this header (hex in the same byte order). */
export function kaspaBlockHash(header: KaspaHeader): Uint8Array {
  return blake2b(serializeKaspaHeader(header), { key: BLOCK_HASH_KEY, dkLen: 32 });
}

/** Pre-PoW hash: the header hash with timestamp and nonce set to 0 (pow.NewState). */
export function kaspaPrePowHash(header: KaspaHeader): Uint8Array {
  const zeroed = serializeKaspaHeader(header, { timestamp: 0n, nonce: 0n });
  return blake2b(zeroed, { key: BLOCK_HASH_KEY, dkLen: 32 });
}

/** Parse the header kaspad's RPC returns (GetBlockTemplate, GetBlock) as handed over. */
export function parseRpcBlockHeader(rpc: RpcBlockHeader): KaspaHeader {
  if (!Array.isArray(rpc.parents)) throw new RangeError('parents must be an array of levels');
  return {
    version: toUint(rpc.version, 16, 'version'),
    parents: rpc.parents.map((level, i) => {
      if (!level || !Array.isArray(level.parentHashes))
        throw new RangeError(`parents[${i}].parentHashes must be an array`);
      return level.parentHashes.map((h) => hexToBytes(h, `parents[${i}] hash`, HASH_BYTES));
    }),
    hashMerkleRoot: hexToBytes(rpc.hashMerkleRoot, 'hashMerkleRoot', HASH_BYTES),
    acceptedIdMerkleRoot: hexToBytes(rpc.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot', HASH_BYTES),
    utxoCommitment: hexToBytes(rpc.utxoCommitment, 'utxoCommitment', HASH_BYTES),
    timestamp: toU64(rpc.timestamp, 'timestamp'),
    bits: toUint(rpc.bits, 32, 'bits'),
    nonce: toU64(rpc.nonce, 'nonce'),
    daaScore: toU64(rpc.daaScore, 'daaScore'),
    blueWork: parseBlueWork(rpc.blueWork),
    blueScore: toU64(rpc.blueScore, 'blueScore'),
    pruningPoint: hexToBytes(rpc.pruningPoint, 'pruningPoint', HASH_BYTES),
  };
}

function parseBlueWork(hex: string): bigint {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{1,64}$/.test(hex))
    throw new RangeError(`blueWork must be hex, got "${String(hex)}"`);
  return BigInt(`0x${hex}`);
}

/** The header in kaspad's RPC shape (64-bit fields as decimal strings), e.g. for SubmitBlock. */
export function toRpcBlockHeader(header: KaspaHeader): RpcBlockHeader {
  return {
    version: header.version,
    parents: header.parents.map((level) => ({ parentHashes: level.map(bytesToHex) })),
    hashMerkleRoot: bytesToHex(header.hashMerkleRoot),
    acceptedIdMerkleRoot: bytesToHex(header.acceptedIdMerkleRoot),
    utxoCommitment: bytesToHex(header.utxoCommitment),
    timestamp: header.timestamp.toString(),
    bits: header.bits,
    nonce: header.nonce.toString(),
    daaScore: header.daaScore.toString(),
    blueWork: header.blueWork.toString(16),
    blueScore: header.blueScore.toString(),
    pruningPoint: bytesToHex(header.pruningPoint),
  };
}
