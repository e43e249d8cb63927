// Valid shares for one connection, mined before the timed phase. The connection's job (from its
// mining.notify) and extranonce1 give the coinbase; one extranonce2 per connection fixes the
// merkle root, then nonces 0, 1, 2... are hashed with the algorithm's proof of work and kept
// only when the hash meets the share target and not the network's: a block would move the tip
// and make every share mined ahead stale (on regtest most shares are blocks otherwise). Distinct
// nonces: no two shares are duplicates.
import { buildShare, difficultyToTarget, hashToBigInt, powHash, type Algorithm } from '@manjam/protocol';
import { ScryptBatch } from '@manjam/protocol/scrypt-simd';
import { templateFromNotify } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';

export interface ShareJob {
  notifyParams: unknown[];
  extranonce1: Buffer;
  extranonce2Size: number;
  difficulty: number;
}

export interface MinedShares {
  /** The JSON params array of each mining.submit, ready to send. */
  params: string[];
  /** Nonces hashed (tried - params.length hashes missed the share target). */
  tried: number;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

export function mineShares(
  job: ShareJob,
  algorithm: Algorithm,
  login: string,
  count: number,
  extranonce2Value = 0,
): MinedShares {
  const template = templateFromNotify(job.notifyParams, job.extranonce1.length, job.extranonce2Size);
  const jobId = String(job.notifyParams[0]);
  const extranonce2 = Buffer.alloc(job.extranonce2Size);
  extranonce2.writeUInt32BE(extranonce2Value >>> 0, job.extranonce2Size - 4);
  const target = difficultyToTarget(job.difficulty, algorithm);
  const first = buildShare(template, algorithm, {
    extranonce1: job.extranonce1,
    extranonce2,
    ntime: template.curtime,
    nonce: 0,
    version: template.version,
  });
  const header = Buffer.from(first.header);
  const prefix = `[${JSON.stringify(login)},${JSON.stringify(jobId)},"${extranonce2.toString('hex')}","${hex8(template.curtime)}","`;
  const params: string[] = [];
  let nonce = 0;
  const hash =
    algorithm === 'scrypt'
      ? scryptHashes(header)
      : (n: number) => (header.writeUInt32LE(n, 76), [powHash(algorithm, header)]);
  while (params.length < count) {
    if (nonce > 0xffffffff) throw new Error('nonce space exhausted');
    for (const pow of hash(nonce)) {
      const value = hashToBigInt(pow);
      if (value <= target && value > template.networkTarget && params.length < count)
        params.push(`${prefix}${hex8(nonce)}"]`);
      nonce++;
    }
  }
  return { params, tried: nonce };
}

/**
 * Shares for the job without mining them: nonces 0, 1, 2... as they come. Against a share target
 * no random hash meets, every one is fully hashed by the pool and rejected as low difficulty.
 */
export function unminedShares(job: ShareJob, login: string, count: number): MinedShares {
  const template = templateFromNotify(job.notifyParams, job.extranonce1.length, job.extranonce2Size);
  const extranonce2 = Buffer.alloc(job.extranonce2Size).toString('hex');
  const prefix = `[${JSON.stringify(login)},${JSON.stringify(String(job.notifyParams[0]))},"${extranonce2}","${hex8(template.curtime)}","`;
  const params = Array.from({ length: count }, (_, nonce) => `${prefix}${hex8(nonce)}"]`);
  return { params, tried: 0 };
}

let scryptBatch: ScryptBatch | undefined;

/** Scrypt mining 64 nonces at a time with the pool's SIMD hasher (mining up front goes twice as fast). */
function scryptHashes(header: Buffer): (firstNonce: number) => Buffer[] {
  const batch = (scryptBatch ??= new ScryptBatch());
  const headers = Buffer.alloc(80 * 64);
  return (firstNonce) => {
    for (let i = 0; i < 64; i++) {
      header.copy(headers, i * 80);
      headers.writeUInt32LE((firstNonce + i) >>> 0, i * 80 + 76);
    }
    const out = Buffer.from(batch.hashHeaders(headers));
    return Array.from({ length: 64 }, (_, i) => out.subarray(i * 32, i * 32 + 32));
  };
}
