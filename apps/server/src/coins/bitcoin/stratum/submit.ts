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
  type StratumErrorCode,
} from '@manjam/protocol';
import type { MinerRef } from '../../../shares/types.js';
import type { BanVerdict } from '../../../stratum/ban-judge.js';
import type {
  Handler,
  QueuedShare,
  RejectionKind,
  StratumId,
  StratumSession,
  SubmitContext,
} from './context.js';
import { MAX_REMEMBERED_REFUSALS, UNCHECKED_MESSAGE, type Unchecked } from '../../../stratum/fair-work.js';
import { submitFoundBlock } from './found-block.js';
import type { Job } from './jobs.js';

/** Seconds a share's ntime may run ahead of the template's time or the clock. */
const NTIME_FUTURE_SECONDS = 7_200;
/** Each algorithm's difficulty-1 target as a double, for a share's actual difficulty. */
const DIFF1 = Object.fromEntries(
  ALGORITHMS.map((algorithm) => [algorithm, Number(diff1Target(algorithm))]),
) as Record<Algorithm, number>;

/**
 * mining.submit. Checks, in order: authorized login (24), subscribed (25), parameter sizes (20),
 * job known (21) and not stale (21), ntime window (20), version bits within the negotiated mask
 * (20), duplicate header hash for the job (22: accepted, or refused after a hash before — a
 * share is never hashed twice), share target (23). SHA-256d shares are hashed in a batch at the
 * end of this turn of the event loop (Sha256dQueue), Scrypt ones in the worker threads, in their
 * connection's turn of the fair queue (fair-work.ts). A hash under the network target is a block.
 * Those answered later take a ticket in the session's ReplyOrder, so every reply of a connection
 * leaves in request order.
 */
export const handleSubmit: Handler = (session, id, params) => {
  const login = params[0];
  const miner = typeof login === 'string' ? session.logins.get(login) : undefined;
  if (!miner)
    return refuse(session, id, undefined, STRATUM_ERROR.UNAUTHORIZED, 'Unauthorized worker', 'unauthorized');
  const extranonce1 = session.extranonce1;
  if (!session.subscribed || !extranonce1)
    return refuse(session, id, miner, STRATUM_ERROR.NOT_SUBSCRIBED, 'Not subscribed', 'not_subscribed');
  const port = session.port;
  const parsed = parseSubmitParams(params, port.pool.config.stratum.extranonce2Size);
  if (!parsed.ok) return refuse(session, id, miner, parsed.error[0], parsed.error[1], 'invalid');
  const input = parsed.value;
  const job = port.jobs.get(input.jobId);
  if (!job) return refuse(session, id, miner, STRATUM_ERROR.JOB_NOT_FOUND, 'Job not found', 'invalid');
  if (job.stale) return refuse(session, id, miner, STRATUM_ERROR.JOB_NOT_FOUND, job.staleMessage, 'stale');
  const tpl = job.template;
  const latest = Math.max(tpl.curtime, Math.floor(Date.now() / 1000)) + NTIME_FUTURE_SECONDS;
  if (input.ntime < tpl.mintime || input.ntime > latest)
    return refuse(session, id, miner, STRATUM_ERROR.OTHER, 'ntime out of range', 'invalid');
  let version = tpl.version;
  if (input.versionBits !== undefined) {
    const applied = applyVersionBits(tpl.version, input.versionBits, session.versionMask);
    if (!applied.ok) return refuse(session, id, miner, applied.error[0], applied.error[1], 'invalid');
    version = applied.value;
  }
  const share: ShareInput = {
    extranonce1,
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
};

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
  if (judged()) return refuse(session, id, miner, STRATUM_ERROR.DUPLICATE, 'Duplicate share', 'duplicate');
  const { scrypt: pool, scryptWork: work } = session.port.pool;
  if (!pool || !work)
    return refuse(session, id, miner, STRATUM_ERROR.OTHER, 'Scrypt validation unavailable', 'busy');
  const context: SubmitContext = { id, miner, ticket: session.order.ticket() };
  const { ticket } = context;
  work.add(session, {
    run: async () => {
      // Judged while it waited (the same share sent twice), or its job went stale: no hash.
      if (judged())
        return refuse(session, id, miner, STRATUM_ERROR.DUPLICATE, 'Duplicate share', 'duplicate', ticket);
      if (job.stale)
        return refuse(session, id, miner, STRATUM_ERROR.JOB_NOT_FOUND, job.staleMessage, 'stale', ticket);
      let pow: Buffer;
      try {
        pow = await pool.hash(built.header);
      } catch {
        return unchecked(session, context, 'pool');
      }
      finish(session, context, job, key, hashToBigInt(pow), () => built);
    },
    refuse: (cause) => unchecked(session, context, cause),
  });
}

/** Refused without a hash: the connection's own queue was full (charged to it), or the pool's capacity (not counted). */
function unchecked(session: StratumSession, { id, miner, ticket }: SubmitContext, cause: Unchecked): void {
  const verdict = cause === 'own-queue' ? 'invalid' : 'uncounted';
  refuse(session, id, miner, STRATUM_ERROR.OTHER, UNCHECKED_MESSAGE[cause], 'busy', ticket, verdict);
}

/** The SHA-256d queue's callbacks: a hashed share is judged like any other. */
export function sha256dHashed(
  { session, job, input, context }: QueuedShare<SubmitContext>,
  hash: Buffer,
): void {
  finish(session, context, job, hash, hashToBigInt(hash), () => buildShare(job.template, 'sha256d', input));
}

export function sha256dRefused({ session, context }: QueuedShare<SubmitContext>, error: unknown): void {
  refuse(
    session,
    context.id,
    context.miner,
    STRATUM_ERROR.OTHER,
    error instanceof Error ? error.message : 'Invalid share',
    'invalid',
    context.ticket,
  );
}

/**
 * The hash checks: duplicate (22), target (23), then credit. `key` is the SHA-256d block hash;
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
  if (job.seen.has(key))
    return refuse(session, id, miner, STRATUM_ERROR.DUPLICATE, 'Duplicate share', 'duplicate', ticket);
  const required = session.requirementFor(job);
  if (pow > required.target) {
    if (job.refused.size < MAX_REMEMBERED_REFUSALS) job.refused.add(key);
    return refuse(
      session,
      id,
      miner,
      STRATUM_ERROR.LOW_DIFFICULTY,
      'Low difficulty share',
      'low_difficulty',
      ticket,
    );
  }
  const port = session.port;
  const pool = port.pool;
  // A share log that cannot take more (its backlog is full) refuses before the share counts as seen.
  const refusal = pool.writer.refusal();
  if (refusal !== undefined) return refuse(session, id, miner, STRATUM_ERROR.OTHER, refusal, 'busy', ticket);
  job.seen.add(key);
  const now = Date.now();
  const actual = pow === 0n ? Number.MAX_VALUE : DIFF1[port.algorithm] / Number(pow);
  pool.stats.accepted++;
  // Journaled first: the writer holds the miner's socket corked until the share is on disk,
  // so the `true` written next cannot leave the process before it.
  pool.writer.addAccepted(
    {
      miner,
      difficulty: required.difficulty,
      actualDifficulty: actual,
      networkDifficulty: job.networkDifficulty,
      height: job.template.height,
      scheme: port.scheme,
      atMs: now,
    },
    session.socket,
  );
  session.reply(id, 'true', ticket);
  const tracker = pool.hashrate.get(port.coin);
  if (tracker) {
    tracker.add(miner.workerKey, required.difficulty, actual, now);
    tracker.add(miner.payeeKey, required.difficulty, actual, now);
    tracker.add('pool', required.difficulty, actual, now);
  }
  pool.judge.count(session, 'valid');
  const retarget = session.vardiff.onShare(now);
  if (retarget !== undefined) session.announceDifficulty(retarget);
  if (pow <= job.template.networkTarget) submitFoundBlock(session, miner, job, build(), required.difficulty);
}

function refuse(
  session: StratumSession,
  id: StratumId,
  miner: MinerRef | undefined,
  code: StratumErrorCode,
  message: string,
  kind: RejectionKind,
  ticket?: number,
  verdict: BanVerdict = kind === 'stale' || kind === 'busy' ? 'uncounted' : 'invalid',
): void {
  session.error(id, stratumError(code, message), ticket);
  const pool = session.port.pool;
  pool.stats.rejected[kind]++;
  if (
    miner &&
    (kind === 'stale' || kind === 'duplicate' || kind === 'low_difficulty' || kind === 'invalid')
  ) {
    pool.writer.addRejected(miner, kind, Date.now());
  }
  pool.judge.count(session, verdict);
}
