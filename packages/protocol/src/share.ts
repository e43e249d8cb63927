/** Rebuild a submitted share: coinbase, merkle root, header, proof-of-work hash. */
import type { Algorithm } from './coins.js';
import { powHash } from './hash.js';
import { bytesToWords, merkleNodeWords, sha256dWords, wordsToBytes } from './sha256-fast.js';
import { hashToBigInt } from './target.js';
import type { JobTemplate } from './template.js';

export interface ShareInput {
  extranonce1: Buffer;
  extranonce2: Buffer;
  ntime: number;
  nonce: number;
  /** Final (rolled) block version. */
  version: number;
}

export interface BuiltShare {
  header: Buffer;
  /** Proof-of-work hash, internal byte order. */
  hash: Buffer;
  hashValue: bigint;
  /** Non-witness coinbase serialization. */
  coinbase: Buffer;
}

export class ShareInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareInputError';
  }
}

/** What building a share needs from a job in ready-to-use form, computed once per job. */
export interface PreparedJob {
  branchWords: Int32Array[];
  prevHash: Buffer;
  bits: number;
  coinbaseLength: number;
  extranonceOffset: number;
}

const prepared = new WeakMap<JobTemplate, PreparedJob>();

/** The job's header parts, coinbase length and merkle branch as words (cached per job; share-batch.ts uses them too). */
export function prepareJob(job: JobTemplate): PreparedJob {
  let p = prepared.get(job);
  if (!p) {
    p = {
      branchWords: job.merkleBranch.map((b) => bytesToWords(b)),
      prevHash: Buffer.from(job.prevHashRpc, 'hex').reverse(),
      bits: Number.parseInt(job.bits, 16),
      coinbaseLength: job.coinb1.length + job.extranonce1Size + job.extranonce2Size + job.coinb2.length,
      extranonceOffset: job.coinb1.length,
    };
    prepared.set(job, p);
  }
  return p;
}

function checkUint32(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new ShareInputError(`${name} must be a 32-bit unsigned integer, got ${value}`);
  }
}

/** Throws ShareInputError when a share's parts do not fit the job (sizes, 32-bit fields). */
export function checkShareInput(job: JobTemplate, input: ShareInput): void {
  if (input.extranonce1.length !== job.extranonce1Size) {
    throw new ShareInputError(
      `extranonce1 must be ${job.extranonce1Size} bytes, got ${input.extranonce1.length}`,
    );
  }
  if (input.extranonce2.length !== job.extranonce2Size) {
    throw new ShareInputError(
      `extranonce2 must be ${job.extranonce2Size} bytes, got ${input.extranonce2.length}`,
    );
  }
  checkUint32(input.ntime, 'ntime');
  checkUint32(input.nonce, 'nonce');
  checkUint32(input.version, 'version');
}

const ROOT = new Int32Array(8);

/** Assemble the coinbase and header of a share and hash it. Hot path: one coinbase, branch, header. */
export function buildShare(job: JobTemplate, algorithm: Algorithm, input: ShareInput): BuiltShare {
  checkShareInput(job, input);
  const p = prepareJob(job);
  const coinbase = Buffer.allocUnsafe(p.coinbaseLength);
  job.coinb1.copy(coinbase, 0);
  input.extranonce1.copy(coinbase, p.extranonceOffset);
  input.extranonce2.copy(coinbase, p.extranonceOffset + job.extranonce1Size);
  job.coinb2.copy(coinbase, p.extranonceOffset + job.extranonce1Size + job.extranonce2Size);

  sha256dWords(coinbase, ROOT);
  for (const step of p.branchWords) merkleNodeWords(ROOT, step, ROOT);

  const header = Buffer.allocUnsafe(80);
  header.writeUInt32LE(input.version, 0);
  p.prevHash.copy(header, 4);
  wordsToBytes(ROOT, header, 36);
  header.writeUInt32LE(input.ntime, 68);
  header.writeUInt32LE(p.bits, 72);
  header.writeUInt32LE(input.nonce, 76);

  const hash = powHash(algorithm, header);
  return { header, hash, hashValue: hashToBigInt(hash), coinbase };
}
