// `submit`, judged in the order the top comment of server.ts gives: logged in, well-formed, job
// known and not stale, nonce new on the job, the claimed result meets the job's difficulty
// (without hashing), the pool's own RandomX hash equals the claim. Then the share is accepted
// (durable before its OK: the sink holds the socket), counted for hashrate and vardiff, and a hash
// meeting the network difficulty becomes a block. Every refusal goes through `refuse`.
import { moneroHashDifficulty, moneroHashMeetsDifficulty, withMoneroNonce } from '@manjam/protocol/monero';
import type { BanList } from '../bans.js';
import { countForBan } from './ban-count.js';
import { submitFoundBlock } from './found-block.js';
import type { Id, MoneroJob, MoneroSession } from './session.js';
import type { MoneroMinerRef, MoneroRejection, MoneroStats, MoneroStratumOptions } from './types.js';

const NONCE = /^[0-9a-fA-F]{8}$/;
const RESULT = /^[0-9a-fA-F]{64}$/;

export class MoneroSubmits {
  private readonly maxPendingHashes: number;
  private pendingHashes = 0;
  private readonly pendingBlocks = new Set<Promise<void>>();

  constructor(
    private readonly options: MoneroStratumOptions,
    private readonly stats: MoneroStats,
    private readonly bans: BanList,
    private readonly sessions: ReadonlySet<MoneroSession>,
  ) {
    this.maxPendingHashes = options.maxPendingHashes ?? options.randomx.threads * 32;
  }

  /** Resolves when every block being submitted is recorded. */
  async settled(): Promise<void> {
    await Promise.all([...this.pendingBlocks]);
  }

  submit(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    const miner = session.miner;
    if (!miner || params.id !== session.id)
      return this.refuse(session, id, undefined, 'Unauthenticated', 'unauthorized');
    const { job_id: jobId, nonce: nonceHex, result } = params;
    if (
      typeof jobId !== 'string' ||
      typeof nonceHex !== 'string' ||
      !NONCE.test(nonceHex) ||
      typeof result !== 'string' ||
      !RESULT.test(result)
    )
      return this.refuse(session, id, miner, 'Malformed share', 'invalid');
    const job = session.jobs.get(jobId);
    if (!job) return this.refuse(session, id, miner, 'Invalid job id', 'invalid');
    if (job.template.tip.stale) return this.refuse(session, id, miner, 'Stale job', 'stale');
    const nonce = Buffer.from(nonceHex, 'hex').readUInt32LE(0);
    if (job.nonces.has(nonce)) return this.refuse(session, id, miner, 'Duplicate share', 'duplicate');
    const claimed = Buffer.from(result, 'hex');
    // What the miner claims already misses the target: no need to spend a RandomX hash on it.
    if (!moneroHashMeetsDifficulty(claimed, job.difficulty))
      return this.refuse(session, id, miner, 'Low difficulty share', 'low_difficulty');
    const refusal = this.options.sink.refusal();
    if (refusal !== undefined) return this.refuse(session, id, miner, refusal, 'busy');
    if (this.pendingHashes >= this.maxPendingHashes)
      return this.refuse(session, id, miner, 'Server busy, share not checked', 'busy');
    this.pendingHashes++;
    const ticket = session.order.ticket();
    const hashingBlob = withMoneroNonce(job.hashingBlob, job.nonceOffset, nonce);
    this.options.randomx.hash(job.template.seedHash, hashingBlob).then(
      (hash) => {
        this.pendingHashes--;
        if (!Buffer.from(hash).equals(claimed))
          return this.refuse(session, id, miner, 'Invalid result', 'invalid', ticket);
        this.accept(session, id, ticket, miner, job, nonce, hash, hashingBlob);
      },
      (error: unknown) => {
        this.pendingHashes--;
        this.options.logger.error({ err: error }, 'RandomX hash failed');
        this.refuse(session, id, miner, 'Server busy, share not checked', 'busy', ticket);
      },
    );
  }

  refuse(
    session: MoneroSession,
    id: Id,
    miner: MoneroMinerRef | undefined,
    message: string,
    kind: MoneroRejection,
    ticket?: number,
  ): void {
    session.error(id, message, ticket);
    this.stats.rejected[kind]++;
    if (miner && kind !== 'busy' && kind !== 'unauthorized')
      this.options.sink.addRejected(miner, kind, Date.now());
    this.countForBan(session, kind !== 'stale' && kind !== 'busy');
  }

  private accept(
    session: MoneroSession,
    id: Id,
    ticket: number,
    miner: MoneroMinerRef,
    job: MoneroJob,
    nonce: number,
    hash: Uint8Array,
    hashingBlob: Uint8Array,
  ): void {
    // The same nonce may have been judged while this one was hashed.
    if (job.nonces.has(nonce)) return this.refuse(session, id, miner, 'Duplicate share', 'duplicate', ticket);
    job.nonces.add(nonce);
    const { sink, scheme } = this.options;
    const now = Date.now();
    const template = job.template;
    const difficulty = Number(job.difficulty);
    const actual = Number(moneroHashDifficulty(hash));
    this.stats.accepted++;
    // Given to the sink first: it holds the socket corked until the share is durable.
    sink.addAccepted(
      {
        miner,
        difficulty,
        actualDifficulty: actual,
        networkDifficulty: Number(template.networkDifficulty),
        height: template.height,
        scheme,
        atMs: now,
      },
      session.socket,
    );
    session.reply(id, { status: 'OK' }, ticket);
    const tracker = this.options.pool?.hashrate;
    if (tracker) {
      tracker.add(miner.workerKey, difficulty, actual, now);
      tracker.add(miner.payeeKey, difficulty, actual, now);
      tracker.add('pool', difficulty, actual, now);
    }
    this.countForBan(session, false);
    // Monero has no set_difficulty: a new difficulty comes with a new job, on the newest template.
    const current = this.options.source.current;
    if (session.vardiff.onShare(now) !== undefined && current && !current.tip.stale)
      session.notifyJob(session.makeJob(current));
    if (moneroHashMeetsDifficulty(hash, template.networkDifficulty)) {
      this.stats.blocks++;
      const work = submitFoundBlock(this.options, {
        miner,
        job,
        nonce,
        hashingBlob,
        shareDifficulty: difficulty,
      });
      this.pendingBlocks.add(work);
      void work.finally(() => this.pendingBlocks.delete(work));
    }
  }

  private countForBan(session: MoneroSession, invalid: boolean): void {
    countForBan(this.bans, this.sessions, session, invalid, this.options.logger);
  }
}
