import {
  ALGORITHMS,
  applyVersionBits,
  buildShare,
  diff1Target,
  hashToBigInt,
  parseSubmitParams,
  stratumError,
  STRATUM_ERROR,
  type Algorithm,
  type BuiltShare,
  type ShareInput,
  type StratumError,
} from '@manjam/protocol';
import type { MinerRef } from '../../../shares/types.js';
import type { BanVerdict } from '../../../stratum/ban-judge.js';
import { creditedDifficulty, judgeWork } from '../../../stratum/block-first.js';
import { STRATUM_V1_REFUSALS, type RejectionKind } from '../../../stratum/rejections.js';
import type { Handler, QueuedShare, StratumId, StratumSession, SubmitContext } from './context.js';
import { MAX_REMEMBERED_REFUSALS, UNCHECKED_MESSAGE, type Unchecked } from '../../../stratum/fair-work.js';
import { submitFoundBlock } from './found-block.js';
import { WORK_PAUSED_MESSAGE } from './coin-availability.js';
import type { Job } from './jobs.js';

/** Seconds a share's ntime may run ahead of the template's time or the clock. */
const NTIME_FUTURE_SECONDS = 7_200;
/** Each algorithm's difficulty-1 target as a double, for a share's actual difficulty. */
const DIFF1 = Object.fromEntries(
  ALGORITHMS.map((algorithm) => [algorithm, Number(diff1Target(algorithm))]),
) as Record<Algorithm, number>;

/**
 * mining.submit. Checks, in order: authorized login (24), subscribed (25), parameter sizes (20),
 * then judgeSubmit's (shared with Stratum V2): job known (21) and not stale (21), ntime window (20), version bits within the negotiated mask
 * (20), duplicate header hash for the job (22: accepted, or refused after a hash before — a
 * share is never hashed twice), then a hash under the network target is submitted as a block
 * first and credited at the share target; any other must meet the share target (23). SHA-256d shares are hashed in a batch at the
 * end of this turn of the event loop (Sha256dQueue), Scrypt ones in the worker threads, in their
 * connection's turn of the fair queue (fair-work.ts).
 * Those answered later take a ticket in the session's ReplyOrder, so every reply of a connection
 * leaves in request order.
 */
export const handleSubmit: Handler = (session, id, params) => {
  const login = params[0];
  const miner = typeof login === 'string' ? session.logins.get(login) : undefined;
  if (!miner) return refuse(session, id, undefined, 'unauthorized');
  const extranonce1 = session.extranonce1;
  if (!session.subscribed || !extranonce1) return refuse(session, id, miner, 'not_subscribed');
  const parsed = parseSubmitParams(params, session.port.pool.config.stratum.extranonce2Size);
  if (!parsed.ok) return refuse(session, id, miner, 'invalid', parsed.error);
  const input = parsed.value;
  judgeSubmit(session, id, miner, {
    jobId: input.jobId,
    extranonce1,
    extranonce2: input.extranonce2,
    ntime: input.ntime,
    nonce: input.nonce,
    version: input.versionBits === undefined ? undefined : { kind: 'bits', value: input.versionBits },
  });
};

/** A submit once its dialect has read it: the same for a V1 line and a Stratum V2 SubmitShares. */
export interface SubmittedShare {
  jobId: string;
  extranonce1: Buffer;
  extranonce2: Buffer;
  ntime: number;
  nonce: number;
  /**
   * V1's rolled bits (mining.submit's 6th param) or V2's whole header version (its bits outside
   * the mask must be the job's); undefined: the job's version.
   */
  version: { kind: 'bits' | 'whole'; value: number } | undefined;
}

/**
 * The checks every dialect's submit goes through after its own parsing: job known (21) and not
 * stale (21), ntime window (20), version bits within the negotiated mask (20), then the hash
 * checks (duplicate, target; see finish). Answers through session.shareAccepted/shareRefused.
 */
export function judgeSubmit(
  session: StratumSession,
  id: StratumId,
  miner: MinerRef,
  input: SubmittedShare,
): void {
  const port = session.port;
  const job = port.jobs.get(input.jobId);
  if (!job) return refuse(session, id, miner, 'invalid', stratumError(STRATUM_ERROR.JOB_NOT_FOUND));
  if (job.stale) return refuse(session, id, miner, 'stale', staleError(job));
  const tpl = job.template;
  const latest = Math.max(tpl.curtime, Math.floor(Date.now() / 1000)) + NTIME_FUTURE_SECONDS;
  if (input.ntime < tpl.mintime || input.ntime > latest)
    return refuse(session, id, miner, 'invalid', stratumError(STRATUM_ERROR.OTHER, 'ntime out of range'));
  let version = tpl.version;
  if (input.version !== undefined) {
    const bits = versionBitsOf(input.version, tpl.version, session.versionMask);
    const applied = applyVersionBits(tpl.version, bits, session.versionMask);
    if (!applied.ok) return refuse(session, id, miner, 'invalid', applied.error);
    version = applied.value;
  }
  const share: ShareInput = {
    extranonce1: input.extranonce1,
    extranonce2: input.extranonce2,
    ntime: input.ntime,
    nonce: input.nonce,
    version,
  };
  if (port.algorithm === 'sha256d') {
    // Hashed with the other SHA-256d submits of this turn of the event loop (four per SIMD pass).
    port.pool.sha256d.add({
      session,
      job,
      input: share,
      context: { id, miner, ticket: session.order.ticket() },
    });
    return;
  }
  // Scrypt: the SHA-256d block hash is the duplicate key; the proof of work comes from the worker threads.
  queueScrypt(session, job, buildShare(tpl, 'sha256d', share), id, miner);
}

/**
 * A whole V2 version as V1's rolled bits: the bits that differ from the job's. Those outside the
 * mask stay outside it, so applyVersionBits refuses them as it refuses V1's.
 */
function versionBitsOf(
  version: { kind: 'bits' | 'whole'; value: number },
  jobVersion: number,
  mask: number,
): number {
  if (version.kind === 'bits') return version.value;
  const differs = (version.value ^ jobVersion) >>> 0;
  return ((differs & ~mask) | (version.value & mask)) >>> 0;
}

/** A Scrypt share waits for its hash in its connection's turn of the fair queue (fair-work.ts). */
function queueScrypt(
  session: StratumSession,
  job: Job,
  built: BuiltShare,
  id: StratumId,
  miner: MinerRef,
): void {
  const key = built.hash;
  const judged = (): boolean => job.seen.has(key) || job.refused.has(key);
  if (judged()) return refuse(session, id, miner, 'duplicate');
  const { scrypt: pool, scryptWork: work } = session.port.pool;
  if (!pool || !work)
    return refuse(
      session,
      id,
      miner,
      'busy',
      stratumError(STRATUM_ERROR.OTHER, 'Scrypt validation unavailable'),
    );
  const context: SubmitContext = { id, miner, ticket: session.order.ticket() };
  const { ticket } = context;
  work.add(session, {
    run: async () => {
      // Judged while it waited (the same share sent twice), or its job went stale: no hash. The
      // pool's own block on the job's parent is judged after the hash (finish), where the block's
      // own header sent again is told 'duplicate', as it is on every other path.
      if (judged()) return refuse(session, id, miner, 'duplicate', undefined, ticket);
      if (job.stale) return refuse(session, id, miner, 'stale', staleError(job), ticket);
      let pow: Buffer;
      try {
        pow = await pool.hash(built.header);
      } catch {
        return unchecked(session, context, 'pool');
      }
      const value = hashToBigInt(pow);
      finish(session, context, job, key, value, () => built);
      // The fair queue's standing (fair-work.ts): did this hash show real work (a share or a block)?
      return value <= session.requirementFor(job).target || value <= job.template.networkTarget;
    },
    refuse: (cause) => unchecked(session, context, cause),
  });
}

/** Refused without a hash: the connection's own queue was full (charged to it), or the pool's capacity (not counted). */
function unchecked(session: StratumSession, { id, miner, ticket }: SubmitContext, cause: Unchecked): void {
  const verdict = cause === 'own-queue' ? 'invalid' : 'uncounted';
  refuse(
    session,
    id,
    miner,
    'busy',
    stratumError(STRATUM_ERROR.OTHER, UNCHECKED_MESSAGE[cause]),
    ticket,
    verdict,
  );
}

/** The SHA-256d queue's callbacks: a hashed share is judged like any other. */
export function sha256dHashed(
  { session, job, input, context }: QueuedShare<SubmitContext>,
  hash: Buffer,
): void {
  finish(session, context, job, hash, hashToBigInt(hash), () => buildShare(job.template, 'sha256d', input));
}

export function sha256dRefused({ session, context }: QueuedShare<SubmitContext>, error: unknown): void {
  const message = error instanceof Error ? error.message : 'Invalid share';
  refuse(
    session,
    context.id,
    context.miner,
    'invalid',
    stratumError(STRATUM_ERROR.OTHER, message),
    context.ticket,
  );
}

/**
 * The hash checks: duplicate (22), stale for the pool's own block on the job's parent (21), then the kit's rule (stratum/block-first.ts): a hash under the
 * network target is submitted as a block FIRST, whatever the share target, then credited at the
 * share target; any other hash must meet the share target (23). `key` is the SHA-256d block hash;
 * `build` rebuilds the coinbase and header, needed only when the share is a block.
 */
function finish(
  session: StratumSession,
  { id, miner, ticket }: SubmitContext,
  job: Job,
  key: Buffer,
  pow: bigint,
  build: () => BuiltShare,
): void {
  if (job.seen.has(key)) return refuse(session, id, miner, 'duplicate', undefined, ticket);
  // The pool's own block already extends this job's parent (found by an earlier share, maybe in the
  // same batch): stale (21), never a second block at that height (block-first.ts, the OWN-BLOCK
  // RULE). After the duplicate check, so the block's own header sent again stays a duplicate.
  if (session.port.jobs.isStale(job)) return refuse(session, id, miner, 'stale', staleError(job), ticket);
  const required = session.requirementFor(job);
  const verdict = judgeWork(pow <= job.template.networkTarget, pow <= required.target);
  if (verdict === 'low_difficulty') {
    if (job.refused.size < MAX_REMEMBERED_REFUSALS) job.refused.add(key);
    return refuse(session, id, miner, 'low_difficulty', undefined, ticket);
  }
  const difficulty = creditedDifficulty(required.difficulty);
  if (verdict === 'block') {
    // Seen at once: the same header again is a duplicate, never a second submit.
    job.seen.add(key);
    submitFoundBlock(session, miner, job, build(), difficulty);
  }
  const port = session.port;
  const pool = port.pool;
  // Past the node silence limit no share is credited, even in the moments before the pause is
  // announced (a block found then was still sent to the node, above).
  if (port.jobs.silent())
    return refuse(
      session,
      id,
      miner,
      'stale',
      stratumError(STRATUM_ERROR.JOB_NOT_FOUND, WORK_PAUSED_MESSAGE),
      ticket,
    );
  // A share log that cannot take more (its backlog is full) refuses before the share counts as seen.
  const refusal = pool.writer.refusal();
  if (refusal !== undefined)
    return refuse(session, id, miner, 'busy', stratumError(STRATUM_ERROR.OTHER, refusal), ticket);
  job.seen.add(key);
  const now = Date.now();
  const actual = pow === 0n ? Number.MAX_VALUE : DIFF1[port.algorithm] / Number(pow);
  const share = {
    miner,
    difficulty,
    actualDifficulty: actual,
    networkDifficulty: job.networkDifficulty,
    height: job.template.height,
    scheme: port.scheme,
    atMs: now,
  };
  // Journaled first: the writer holds the miner's socket corked until the share is on disk,
  // so the `true` written next cannot leave the process before it.
  pool.book.accepted(session, share, pool.hashrate.get(port.coin), () => session.shareAccepted(id, ticket));
  const retarget = session.vardiff.onShare(now);
  if (retarget !== undefined) session.announceDifficulty(retarget);
}

/** A stale job's refusal: 'Stale job', or why the coin's work is paused (jobs.ts). */
function staleError(job: Job): StratumError {
  return stratumError(STRATUM_ERROR.JOB_NOT_FOUND, job.staleMessage);
}

/** Answers a refusal with the V1 error for its kind (`error`: why, when that is not enough) and books it. */
function refuse(
  session: StratumSession,
  id: StratumId,
  miner: MinerRef | undefined,
  kind: RejectionKind,
  error: StratumError = STRATUM_V1_REFUSALS[kind],
  ticket?: number,
  verdict?: BanVerdict,
): void {
  session.shareRefused(id, kind, error, ticket);
  session.port.pool.book.refused(session, miner, kind, verdict);
}
