// `mining.submit [worker, jobId, nonce]`, judged in this order: authorized; well-formed (job id a
// string, nonce hex, with the session's extranonce leading it: parseKaspaSubmitNonce); job known
// ("Job not found"); its template still valid ("Stale job", template-source.ts); the nonce not
// judged before on the template, by any connection ("Duplicate share"); the share log can take
// it; then kHeavyHash is computed here (the miner sends no hash to trust) and must meet the job's
// share target ("Low difficulty share"). Accepted: given to the sink BEFORE the `true` (the sink
// holds the socket corked until the share is durable), counted for hashrate and vardiff; a PoW
// value at or under the network target is a block (found-block.ts). Every refusal goes through
// `refuse`: a kind of the kit's vocabulary (../../../stratum/rejections.ts, which also gives its
// ban verdict) answered with the Stratum V1 error for it (STRATUM_V1_REFUSALS, as the V1 ports).
import { STRATUM_ERROR, stratumError, type StratumError } from '@manjam/protocol';
import {
  kaspaMeetsTarget,
  kaspaNonceValue,
  kaspaPowWordsOf,
  kaspaWordsDifficulty,
  parseKaspaSubmitNonce,
  type KaspaNonce,
} from '@manjam/protocol/kaspa';
import { STRATUM_V1_REFUSALS, type RejectionKind } from '../../../stratum/rejections.js';
import type { ShareBook } from '../../../stratum/share-book.js';
import { isStaleTemplate, type KaspaTemplate } from '../template-source.js';
import { submitFoundBlock } from './found-block.js';
import type { Id, KaspaJob, KaspaSession } from './session.js';
import type { KAS, KaspaMinerRef, KaspaStratumOptions } from './types.js';

const powWords = new Uint32Array(8);

export class KaspaSubmits {
  /** Nonces (16 hex digits) judged per template (pool-wide: a nonce carries its session's extranonce). */
  private readonly seen = new WeakMap<KaspaTemplate, Set<string>>();

  constructor(
    private readonly options: KaspaStratumOptions,
    private readonly book: ShareBook<KaspaSession, typeof KAS>,
  ) {}

  settled(): Promise<void> {
    return this.book.settled();
  }

  submit(session: KaspaSession, id: Id, params: unknown[]): void {
    const miner = session.miner;
    if (!miner) return this.refuse(session, id, undefined, 'unauthorized');
    const [, jobId, nonceText] = params;
    if (typeof jobId !== 'string')
      return this.refuse(
        session,
        id,
        miner,
        'invalid',
        stratumError(STRATUM_ERROR.OTHER, 'Malformed share: job id'),
      );
    const nonce = parseKaspaSubmitNonce(nonceText, session.extranonceHex);
    if (!nonce.ok) return this.refuse(session, id, miner, 'invalid', nonce.error);
    const job = session.jobs.get(jobId);
    if (!job) return this.refuse(session, id, miner, 'invalid', stratumError(STRATUM_ERROR.JOB_NOT_FOUND));
    const template = job.template;
    if (isStaleTemplate(template, Date.now(), this.options.source.jobValidMs))
      return this.refuse(session, id, miner, 'stale');
    let seen = this.seen.get(template);
    if (!seen) this.seen.set(template, (seen = new Set()));
    if (seen.has(nonce.value.hex)) return this.refuse(session, id, miner, 'duplicate');
    const busy = this.options.sink.refusal();
    if (busy !== undefined)
      return this.refuse(session, id, miner, 'busy', stratumError(STRATUM_ERROR.OTHER, busy));
    seen.add(nonce.value.hex);
    kaspaPowWordsOf(template.pow, nonce.value.lo, nonce.value.hi, powWords);
    if (!kaspaMeetsTarget(powWords, job.targetWords))
      return this.refuse(session, id, miner, 'low_difficulty');
    this.accept(session, id, miner, job, nonce.value);
  }

  /** Answers a refusal with the V1 error for its kind (`error`: why, when that is not enough) and books it. */
  refuse(
    session: KaspaSession,
    id: Id,
    miner: KaspaMinerRef | undefined,
    kind: RejectionKind,
    error: StratumError = STRATUM_V1_REFUSALS[kind],
  ): void {
    session.error(id, error);
    this.book.refused(session, miner, kind);
  }

  private accept(
    session: KaspaSession,
    id: Id,
    miner: KaspaMinerRef,
    job: KaspaJob,
    nonce: KaspaNonce,
  ): void {
    const now = Date.now();
    const template = job.template;
    const isBlock = kaspaMeetsTarget(powWords, template.targetWords);
    const share = {
      miner,
      difficulty: job.difficulty,
      actualDifficulty: kaspaWordsDifficulty(powWords),
      networkDifficulty: template.networkDifficulty,
      height: Number(template.daaScore),
      scheme: this.options.scheme,
      atMs: now,
    };
    this.book.accepted(session, share, this.options.pool?.hashrate, () => session.reply(id, true));
    const current = this.options.source.current;
    if (session.vardiff.onShare(now) !== undefined && current) session.sendJob(current);
    if (isBlock)
      this.book.block(
        submitFoundBlock(this.options, {
          miner,
          template,
          nonce: kaspaNonceValue(nonce),
          shareDifficulty: job.difficulty,
        }),
      );
  }
}
