// `mining.submit [worker, jobId, nonce]`, judged in this order: authorized; well-formed (job id a
// string, nonce hex, with the session's extranonce leading it: parseKaspaSubmitNonce); job known
// ("Job not found"); its template still valid ("Stale job", template-source.ts); the nonce not
// judged before on the template, by any connection ("Duplicate share"); the share log can take
// it; then kHeavyHash is computed here (the miner sends no hash to trust) and must meet the job's
// share target ("Low difficulty share"). Accepted: given to the sink BEFORE the `true` (the sink
// holds the socket corked until the share is durable), counted for hashrate and vardiff; a PoW
// value at or under the network target is a block (found-block.ts). Every refusal goes through
// `refuse`, with its ban verdict (../../../stratum/ban-judge.ts).
import { STRATUM_ERROR, stratumError, type StratumError } from '@manjam/protocol';
import {
  kaspaMeetsTarget,
  kaspaPowWordsOf,
  kaspaTargetDifficulty,
  parseKaspaSubmitNonce,
  wordsToBigInt,
} from '@manjam/protocol/kaspa';
import { BanJudge, type BanVerdict } from '../../../stratum/ban-judge.js';
import type { BanList } from '../../../stratum/bans.js';
import { isStaleTemplate, type KaspaTemplate } from '../template-source.js';
import { submitFoundBlock } from './found-block.js';
import type { Id, KaspaJob, KaspaSession } from './session.js';
import type { KaspaMinerRef, KaspaRejection, KaspaStats, KaspaStratumOptions } from './types.js';

const powWords = new Uint32Array(8);

export class KaspaSubmits {
  private readonly judge: BanJudge<KaspaSession>;
  private readonly pendingBlocks = new Set<Promise<void>>();
  /** Nonces judged per template (pool-wide: a nonce carries its session's extranonce). */
  private readonly seen = new WeakMap<KaspaTemplate, Set<bigint>>();

  constructor(
    private readonly options: KaspaStratumOptions,
    private readonly stats: KaspaStats,
    bans: BanList,
    sessions: ReadonlySet<KaspaSession>,
  ) {
    this.judge = new BanJudge(bans, sessions, options.logger, (session) => [session.login]);
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pendingBlocks]);
  }

  submit(session: KaspaSession, id: Id, params: unknown[]): void {
    const miner = session.miner;
    if (!miner)
      return this.refuse(session, id, undefined, stratumError(STRATUM_ERROR.UNAUTHORIZED), 'unauthorized');
    const [, jobId, nonceText] = params;
    if (typeof jobId !== 'string')
      return this.refuse(
        session,
        id,
        miner,
        stratumError(STRATUM_ERROR.OTHER, 'Malformed share: job id'),
        'invalid',
      );
    const nonce = parseKaspaSubmitNonce(nonceText, session.extranonceHex);
    if (!nonce.ok) return this.refuse(session, id, miner, nonce.error, 'invalid');
    const job = session.jobs.get(jobId);
    if (!job) return this.refuse(session, id, miner, stratumError(STRATUM_ERROR.JOB_NOT_FOUND), 'invalid');
    const template = job.template;
    if (isStaleTemplate(template, Date.now(), this.options.source.jobValidMs))
      return this.refuse(session, id, miner, stratumError(STRATUM_ERROR.JOB_NOT_FOUND, 'Stale job'), 'stale');
    let seen = this.seen.get(template);
    if (!seen) this.seen.set(template, (seen = new Set()));
    if (seen.has(nonce.value))
      return this.refuse(session, id, miner, stratumError(STRATUM_ERROR.DUPLICATE), 'duplicate');
    const busy = this.options.sink.refusal();
    if (busy !== undefined)
      return this.refuse(session, id, miner, stratumError(STRATUM_ERROR.OTHER, busy), 'busy');
    seen.add(nonce.value);
    kaspaPowWordsOf(template.pow, Number(nonce.value & 0xffffffffn), Number(nonce.value >> 32n), powWords);
    if (!kaspaMeetsTarget(powWords, job.targetWords))
      return this.refuse(session, id, miner, stratumError(STRATUM_ERROR.LOW_DIFFICULTY), 'low_difficulty');
    this.accept(session, id, miner, job, nonce.value, wordsToBigInt(powWords));
  }

  refuse(
    session: KaspaSession,
    id: Id,
    miner: KaspaMinerRef | undefined,
    error: StratumError,
    kind: KaspaRejection,
    verdict: BanVerdict = kind === 'stale' || kind === 'busy' ? 'uncounted' : 'invalid',
  ): void {
    session.error(id, error);
    this.stats.rejected[kind]++;
    if (miner && kind !== 'busy' && kind !== 'unauthorized')
      this.options.sink.addRejected(miner, kind, Date.now());
    this.judge.count(session, verdict);
  }

  private accept(
    session: KaspaSession,
    id: Id,
    miner: KaspaMinerRef,
    job: KaspaJob,
    nonce: bigint,
    pow: bigint,
  ): void {
    const { sink, scheme } = this.options;
    const now = Date.now();
    const template = job.template;
    const actual = kaspaTargetDifficulty(pow);
    this.stats.accepted++;
    // Given to the sink first: it holds the socket corked until the share is durable.
    sink.addAccepted(
      {
        miner,
        difficulty: job.difficulty,
        actualDifficulty: actual,
        networkDifficulty: template.networkDifficulty,
        height: Number(template.daaScore),
        scheme,
        atMs: now,
      },
      session.socket,
    );
    session.reply(id, true);
    const tracker = this.options.pool?.hashrate;
    if (tracker) {
      tracker.add(miner.workerKey, job.difficulty, actual, now);
      tracker.add(miner.payeeKey, job.difficulty, actual, now);
      tracker.add('pool', job.difficulty, actual, now);
    }
    this.judge.count(session, 'valid');
    const current = this.options.source.current;
    if (session.vardiff.onShare(now) !== undefined && current) session.sendJob(current);
    if (pow <= template.target) {
      this.stats.blocks++;
      const work = submitFoundBlock(this.options, {
        miner,
        template,
        nonce,
        shareDifficulty: job.difficulty,
      });
      this.pendingBlocks.add(work);
      void work.finally(() => this.pendingBlocks.delete(work));
    }
  }
}
