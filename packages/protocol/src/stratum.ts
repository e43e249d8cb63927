/** Stratum V1 error codes and message parameter helpers (pure; no sockets). */

export const STRATUM_ERROR = {
  OTHER: 20,
  JOB_NOT_FOUND: 21,
  DUPLICATE: 22,
  LOW_DIFFICULTY: 23,
  UNAUTHORIZED: 24,
  NOT_SUBSCRIBED: 25,
} as const;
export type StratumErrorCode = (typeof STRATUM_ERROR)[keyof typeof STRATUM_ERROR];
export type StratumError = [StratumErrorCode, string, null];

export const STRATUM_ERROR_MESSAGES: Record<StratumErrorCode, string> = {
  20: 'Other/Unknown',
  21: 'Job not found',
  22: 'Duplicate share',
  23: 'Low difficulty share',
  24: 'Unauthorized worker',
  25: 'Not subscribed',
};

export function stratumError(
  code: StratumErrorCode,
  message: string = STRATUM_ERROR_MESSAGES[code],
): StratumError {
  return [code, message, null];
}

/** Version bits the pool lets miners roll (BIP 310 / BIP 320). */
export const POOL_VERSION_MASK = 0x1fffe000;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: StratumError };

function fail<T>(message: string, code: StratumErrorCode = STRATUM_ERROR.OTHER): Parsed<T> {
  return { ok: false, error: stratumError(code, message) };
}

const HEX8 = /^[0-9a-fA-F]{8}$/;

/** Exactly 8 hex digits -> unsigned 32-bit integer (nonce, ntime, version), or undefined. */
export function parseHexUint32(hex: unknown): number | undefined {
  if (typeof hex !== 'string' || !HEX8.test(hex)) return undefined;
  return Number.parseInt(hex, 16);
}

export function toHexUint32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** Answer to mining.configure version-rolling: the pool mask AND the miner's requested mask. */
export function negotiateVersionMask(
  requestedMaskHex: unknown,
  poolMask: number = POOL_VERSION_MASK,
): number {
  const requested = parseHexUint32(requestedMaskHex);
  return requested === undefined ? 0 : (requested & poolMask) >>> 0;
}

/** Final header version from a job version and submitted version bits under the negotiated mask. */
export function applyVersionBits(jobVersion: number, versionBits: number, mask: number): Parsed<number> {
  if ((versionBits & ~mask) >>> 0 !== 0) return fail('Version bits outside the negotiated mask');
  return { ok: true, value: ((jobVersion & ~mask) | (versionBits & mask)) >>> 0 };
}

export interface SubmitParams {
  workerName: string;
  jobId: string;
  extranonce2: Buffer;
  ntime: number;
  nonce: number;
  /** Present when the miner rolls version bits. */
  versionBits: number | undefined;
}

/** Validate mining.submit params: [worker, job_id, extranonce2, ntime, nonce, version_bits?]. */
export function parseSubmitParams(params: unknown, extranonce2Size: number): Parsed<SubmitParams> {
  if (!Array.isArray(params) || params.length < 5 || params.length > 6)
    return fail('Invalid submit parameters');
  const [workerName, jobId, en2Hex, ntimeHex, nonceHex, versionHex] = params as unknown[];
  if (
    typeof workerName !== 'string' ||
    typeof jobId !== 'string' ||
    jobId.length === 0 ||
    jobId.length > 64
  ) {
    return fail('Invalid worker or job id');
  }
  if (typeof en2Hex !== 'string' || en2Hex.length !== extranonce2Size * 2 || !/^[0-9a-fA-F]*$/.test(en2Hex)) {
    return fail(`Incorrect size of extranonce2 (expected ${extranonce2Size} bytes)`);
  }
  const ntime = parseHexUint32(ntimeHex);
  if (ntime === undefined) return fail('Incorrect size of ntime');
  const nonce = parseHexUint32(nonceHex);
  if (nonce === undefined) return fail('Incorrect size of nonce');
  let versionBits: number | undefined;
  if (versionHex !== undefined && versionHex !== null) {
    versionBits = parseHexUint32(versionHex);
    if (versionBits === undefined) return fail('Invalid version bits');
  }
  return {
    ok: true,
    value: { workerName, jobId, extranonce2: Buffer.from(en2Hex, 'hex'), ntime, nonce, versionBits },
  };
}

export type SubscribeResult = [[[string, string], [string, string]], string, number];

/** mining.subscribe result: [[["mining.set_difficulty", id], ["mining.notify", id]], extranonce1, en2 size]. */
export function subscribeResult(
  subscriptionId: string,
  extranonce1: Buffer,
  extranonce2Size: number,
): SubscribeResult {
  return [
    [
      ['mining.set_difficulty', subscriptionId],
      ['mining.notify', subscriptionId],
    ],
    extranonce1.toString('hex'),
    extranonce2Size,
  ];
}

/** "account.worker" -> its parts (worker "default" when absent). */
export function splitWorkerName(login: string): { account: string; worker: string } {
  const dot = login.indexOf('.');
  if (dot < 0) return { account: login, worker: 'default' };
  return { account: login.slice(0, dot), worker: login.slice(dot + 1) || 'default' };
}
