/** Block header and full block serialization (segwit coinbase witness, MWEB extension). */
import { coinbaseWithWitness, encodeVarint } from './coinbase.js';
import { sha256d, toRpcHex } from './hash.js';
import type { BuiltShare } from './share.js';
import type { JobTemplate } from './template.js';

export interface HeaderFields {
  version: number;
  /** Internal byte order. */
  prevHash: Buffer;
  /** Internal byte order. */
  merkleRoot: Buffer;
  time: number;
  /** Compact target as 8 hex digits or a number. */
  bits: string | number;
  nonce: number;
}

/** 80-byte header: version | prevhash | merkle root | time | bits | nonce (integers little-endian). */
export function serializeHeader(fields: HeaderFields): Buffer {
  if (fields.prevHash.length !== 32 || fields.merkleRoot.length !== 32) {
    throw new RangeError('prevHash and merkleRoot must be 32 bytes');
  }
  const header = Buffer.alloc(80);
  header.writeUInt32LE(fields.version >>> 0, 0);
  fields.prevHash.copy(header, 4);
  fields.merkleRoot.copy(header, 36);
  header.writeUInt32LE(fields.time, 68);
  header.writeUInt32LE(typeof fields.bits === 'string' ? Number.parseInt(fields.bits, 16) : fields.bits, 72);
  header.writeUInt32LE(fields.nonce, 76);
  return header;
}

/** Block hash (double SHA-256 of the header, for every coin) in RPC display order. */
export function blockHashHex(header80: Buffer): string {
  if (header80.length !== 80) throw new RangeError(`a block header is 80 bytes, got ${header80.length}`);
  return toRpcHex(sha256d(header80));
}

/**
 * Full block for submitblock: header | tx count | coinbase | template transactions, then for
 * MWEB blocks 0x01 and the template's mweb data (its HogEx is already the last transaction).
 */
export function serializeBlock(job: JobTemplate, share: BuiltShare): Buffer {
  if (share.header.length !== 80) throw new RangeError('share header must be 80 bytes');
  const coinbase = job.segwit ? coinbaseWithWitness(share.coinbase) : share.coinbase;
  const parts: Buffer[] = [share.header, encodeVarint(job.transactions.length + 1), coinbase];
  for (const tx of job.transactions) parts.push(Buffer.from(tx, 'hex'));
  if (job.mweb !== undefined) parts.push(Buffer.from([0x01]), Buffer.from(job.mweb, 'hex'));
  return Buffer.concat(parts);
}

/** serializeBlock as hex, ready for the submitblock RPC. */
export function serializeBlockHex(job: JobTemplate, share: BuiltShare): string {
  return serializeBlock(job, share).toString('hex');
}
