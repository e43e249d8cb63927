// `submit`, judged in the order the top comment of server.ts gives: logged in, well-formed, job
// known and not stale, nonce not judged before on the job (accepted, waiting, or refused after a
// hash: never hashed twice), the claimed result meets the job's difficulty or the network's, the
// share log can take it (not asked of a claimed block). The claim is used ONLY TO REFUSE: a claim
// under both is refused without a hash (an honest miner never sends one, it counts invalid); any
// other claim is hashed, in its connection's turn of the fair queue (../fair-work.ts), and a hash
// that differs from the claim is "Invalid result". Then the kit's rule (block-first.ts): a hash
// meeting the network difficulty is submitted as a block first, whatever the job's difficulty;
// the share is accepted (durable before its OK: the sink holds the socket) at the job's
// difficulty and counted for hashrate and vardiff.
// Every refusal goes through `refuse`: a kind of the kit's vocabulary (../../../stratum/rejections.ts,
// which also gives its ban verdict) answered with XMRig's words for it (MONERO_REFUSALS).
import { moneroHashDifficulty, moneroHashMeetsDifficulty, withMoneroNonce } from '@manjam/protocol/monero';
import type { BanVerdict } from '../../../stratum/ban-judge.js';
import { creditedDifficulty, judgeWork, OwnBlocks } from '../../../stratum/block-first.js';
import {
  FairWork,
  MAX_REMEMBERED_REFUSALS,
  UNCHECKED_MESSAGE,
  type Unchecked,
} from '../../../stratum/fair-work.js';
import type { RejectionKind } from '../../../stratum/rejections.js';
import type { ShareBook } from '../../../stratum/share-book.js';
import { submitFoundBlock } from './found-block.js';
import type { Id, MoneroJob, MoneroSession } from './session.js';
import type { MoneroTip } from './template-source.js';
import type { MoneroMinerRef, MoneroStratumOptions, XMR } from './types.js';

const NONCE = /^[0-9a-fA-F]{8}$/;
const RESULT = /^[0-9a-fA-F]{64}$/;

/**
 * Each rejection kind in XMRig's dialect (the error's `message`, code -1). `invalid` and `busy`
 * usually say why (a malformed share, an unknown job, a wrong result; the share log's refusal).
 */
export const MONERO_REFUSALS: Record<RejectionKind, string> = {
  stale: 'Stale job',
  duplicate: 'Duplicate share',
  low_difficulty: 'Low difficulty share',
  invalid: 'Invalid share',
  unauthorized: 'Unauthenticated',
  // XMRig's dialect has no subscribe: a login is the whole handshake.
  not_subscribed: 'Unauthenticated',
  busy: 'Server busy, try again',
};

export class MoneroSubmits {
  private readonly work: FairWork<MoneroSession>;
  /**
   * The tips the pool's own blocks extend: a job on one is stale at once, before the template on
   * the pool's block arrives (block-first.ts, the OWN-BLOCK RULE). A template on the same parent
   * after the node moved away and back comes with a new tip, which no claim names.
   */
  private readonly ownBlocks = new OwnBlocks<MoneroTip>();

  constructor(
    private readonly options: MoneroStratumOptions,
    private readonly book: ShareBook<MoneroSession, typeof XMR>,
  ) {
    // One hash per RandomX thread at a time: a share never waits in the addon's own queue behind
    // a flooder's, only for the hashes already running.
    this.work = new FairWork(options.stratum.powQueue, options.randomx.threads);
  }

  /** The fair queue's figures (shares waiting, hashing, refused unchecked). */
  get queue(): { queued: number; hashing: number; refused: Record<Unchecked, number> } {
    return { queued: this.work.queued, hashing: this.work.inFlight, refused: { ...this.work.refused } };
  }

  /** Resolves when every block being submitted is recorded. */
  settled(): Promise<void> {
    return this.book.settled();
  }

  submit(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    const miner = session.miner;
    if (!miner || params.id !== session.id) return this.refuse(session, id, undefined, 'unauthorized');
    const { job_id: jobId, nonce: nonceHex, result } = params;
    if (
      typeof jobId !== 'string' ||
      typeof nonceHex !== 'string' ||
      !NONCE.test(nonceHex) ||
      typeof result !== 'string' ||
      !RESULT.test(result)
    )
      return this.refuse(session, id, miner, 'invalid', 'Malformed share');
    const job = session.jobs.get(jobId);
    if (!job) return this.refuse(session, id, miner, 'invalid', 'Invalid job id');
    if (job.template.tip.stale) return this.refuse(session, id, miner, 'stale');
    const nonce = Buffer.from(nonceHex, 'hex').readUInt32LE(0);
    if (job.nonces.has(nonce) || job.refused.has(nonce)) return this.refuse(session, id, miner, 'duplicate');
    // After the duplicate check, so the pool block's own nonce sent again stays a duplicate.
    if (this.isStale(job)) return this.refuse(session, id, miner, 'stale');
    const claimed = Buffer.from(result, 'hex');
    // A claim that misses the share target and the network's is refused as it stands (the miner's
    // own word against it); a claimed block is hashed whatever the share target (block-first.ts).
    const claimedBlock = moneroHashMeetsDifficulty(claimed, job.template.networkDifficulty);
    if (judgeWork(claimedBlock, moneroHashMeetsDifficulty(claimed, job.difficulty)) === 'low_difficulty')
      return this.refuse(session, id, miner, 'low_difficulty');
    // A claimed block is not refused for a full share log before it is hashed and submitted.
    const refusal = claimedBlock ? undefined : this.options.sink.refusal();
    if (refusal !== undefined) return this.refuse(session, id, miner, 'busy', refusal);
    const ticket = session.order.ticket();
    job.nonces.add(nonce);
    this.work.add(session, {
      run: () => this.check(session, id, ticket, miner, job, nonce, claimed),
      refuse: (cause) => {
        job.nonces.delete(nonce);
        this.unchecked(session, id, miner, cause, ticket);
      },
    });
  }

  /** The share's turn in the fair queue: its RandomX hash against the claim (true: it met the job's target). */
  private async check(
    session: MoneroSession,
    id: Id,
    ticket: number,
    miner: MoneroMinerRef,
    job: MoneroJob,
    nonce: number,
    claimed: Buffer,
  ): Promise<boolean | void> {
    // Its tip was replaced (or the pool's own block extends it) while it waited: refused without a hash.
    if (this.isStale(job)) {
      job.nonces.delete(nonce);
      return this.refuse(session, id, miner, 'stale', undefined, ticket);
    }
    const hashingBlob = withMoneroNonce(job.hashingBlob, job.nonceOffset, nonce);
    let hash: Uint8Array;
    try {
      hash = await this.options.randomx.hash(job.template.seedHash, hashingBlob);
    } catch (error) {
      job.nonces.delete(nonce);
      this.options.logger.error({ err: error }, 'RandomX hash failed');
      return this.unchecked(session, id, miner, 'pool', ticket);
    }
    if (!Buffer.from(hash).equals(claimed)) {
      job.nonces.delete(nonce);
      if (job.refused.size < MAX_REMEMBERED_REFUSALS) job.refused.add(nonce);
      this.refuse(session, id, miner, 'invalid', 'Invalid result', ticket);
      return false;
    }
    // Hashed beside the share that found the pool's block on this parent: stale, never a second
    // block at that height (block-first.ts, the OWN-BLOCK RULE).
    if (this.isStale(job)) {
      job.nonces.delete(nonce);
      return this.refuse(session, id, miner, 'stale', undefined, ticket);
    }
    // The kit's rule (block-first.ts): a block is submitted first, then judged as a share.
    const verdict = judgeWork(
      moneroHashMeetsDifficulty(hash, job.template.networkDifficulty),
      moneroHashMeetsDifficulty(hash, job.difficulty),
    );
    const difficulty = creditedDifficulty(Number(job.difficulty));
    if (verdict === 'block')
      this.book.block(
        submitFoundBlock(
          this.options,
          { miner, job, nonce, hashingBlob, shareDifficulty: difficulty },
          this.ownBlocks,
        ),
      );
    const refusal = this.options.sink.refusal();
    if (refusal !== undefined) {
      this.refuse(session, id, miner, 'busy', refusal, ticket);
      return verdict === 'block';
    }
    this.accept(session, id, ticket, miner, job, hash, difficulty);
    return true;
  }

  /** Whether shares on `job` are stale: its tip was replaced, or the pool's own block extends it. */
  private isStale(job: MoneroJob): boolean {
    return job.template.tip.stale || this.ownBlocks.extends(job.template.tip);
  }

  /** Refused without a hash: the connection's own queue was full (charged to it), or the pool's capacity (not counted). */
  private unchecked(
    session: MoneroSession,
    id: Id,
    miner: MoneroMinerRef,
    cause: Unchecked,
    ticket: number,
  ): void {
    const verdict = cause === 'own-queue' ? 'invalid' : 'uncounted';
    this.refuse(session, id, miner, 'busy', UNCHECKED_MESSAGE[cause], ticket, verdict);
  }

  /** Answers a refusal in XMRig's words (`message`: why, when the kind's words are not enough) and books it. */
  refuse(
    session: MoneroSession,
    id: Id,
    miner: MoneroMinerRef | undefined,
    kind: RejectionKind,
    message: string = MONERO_REFUSALS[kind],
    ticket?: number,
    verdict?: BanVerdict,
  ): void {
    session.error(id, message, ticket);
    this.book.refused(session, miner, kind, verdict);
  }

  private accept(
    session: MoneroSession,
    id: Id,
    ticket: number,
    miner: MoneroMinerRef,
    job: MoneroJob,
    hash: Uint8Array,
    difficulty: number,
  ): void {
    const { scheme } = this.options;
    const now = Date.now();
    const template = job.template;
    const share = {
      miner,
      difficulty,
      actualDifficulty: Number(moneroHashDifficulty(hash)),
      networkDifficulty: Number(template.networkDifficulty),
      height: template.height,
      scheme,
      atMs: now,
    };
    this.book.accepted(session, share, this.options.pool?.hashrate, () =>
      session.reply(id, { status: 'OK' }, ticket),
    );
    // Monero has no set_difficulty: a new difficulty comes with a new job, on the newest template.
    const current = this.options.source.current;
    if (session.vardiff.onShare(now) !== undefined && current && !current.tip.stale)
      session.notifyJob(session.makeJob(current));
  }
}
