// `mining.submit [worker, jobId, nonce]`, judged in this order: authorized; well-formed (job id a
// string, nonce hex, with the session's extranonce leading it: parseKaspaSubmitNonce); job known
// ("Job not found"); its template still valid ("Stale job", template-source.ts); the nonce not
// judged before on the template, by any connection ("Duplicate share"); then kHeavyHash is
// computed here (the miner sends no hash to trust) and the kit's rule applies (block-first.ts): a
// PoW value at or under the network target is submitted as a block first (found-block.ts),
// whatever the share target; then the share log must take it ("busy") and any other value must
// meet the job's share target ("Low difficulty share"). Accepted: at the job's difficulty, given
// to the sink BEFORE the `true` (the sink holds the socket corked until the share is durable),
// counted for hashrate and vardiff. Every refusal goes through
// `refuse`: a kind of the kit's vocabulary (../../../stratum/rejections.ts, which also gives its
// ban verdict) answered with the Stratum V1 error for it (STRATUM_V1_REFUSALS, as the V1 ports).
import { STRATUM_ERROR, stratumError, type StratumError } from '@manjam/protocol';
import {
  kaspaMeetsTarget,
  kaspaNonceValue,
  kaspaPowWordsOf,
  kaspaWordsDifficulty,
  parseKaspaSubmitNonce,
} from '@manjam/protocol/kaspa';
import { creditedDifficulty, judgeWork } from '../../../stratum/block-first.js';
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
    kaspaPowWordsOf(template.pow, nonce.value.lo, nonce.value.hi, powWords);
    // The kit's rule (block-first.ts): a block is submitted first, whatever the share target. Its
    // OWN-BLOCK RULE is not applied: in Kaspa's DAG a second block of the pool's on the same
    // parents is as legitimate as the first (both can be merged blue), so each is submitted.
    const verdict = judgeWork(
      kaspaMeetsTarget(powWords, template.targetWords),
      kaspaMeetsTarget(powWords, job.targetWords),
    );
    const difficulty = creditedDifficulty(job.difficulty);
    if (verdict === 'block') {
      seen.add(nonce.value.hex);
      this.book.block(
        submitFoundBlock(this.options, {
          miner,
          template,
          nonce: kaspaNonceValue(nonce.value),
          shareDifficulty: difficulty,
        }),
      );
    }
    const busy = this.options.sink.refusal();
    if (busy !== undefined)
      return this.refuse(session, id, miner, 'busy', stratumError(STRATUM_ERROR.OTHER, busy));
    seen.add(nonce.value.hex);
    if (verdict === 'low_difficulty') return this.refuse(session, id, miner, 'low_difficulty');
    this.accept(session, id, miner, job, difficulty);
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
    difficulty: number,
  ): void {
    const now = Date.now();
    const template = job.template;
    const share = {
      miner,
      difficulty,
      actualDifficulty: kaspaWordsDifficulty(powWords),
      networkDifficulty: template.networkDifficulty,
      height: Number(template.daaScore),
      scheme: this.options.scheme,
      atMs: now,
    };
    this.book.accepted(session, share, this.options.pool?.hashrate, () => session.reply(id, true));
    const current = this.options.source.current;
    if (session.vardiff.onShare(now) !== undefined && current) session.sendJob(current);
  }
}
