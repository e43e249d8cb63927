import {
  addressToOutputScript,
  algorithmOf,
  coinbaseOnlyTemplate,
  jobFromTemplate,
  notifyParams,
  targetToDifficulty,
  type Algorithm,
  type BlockTemplateRpc,
  type JobTemplate,
  type TipHeader,
} from '@manjam/protocol';
import type { Logger } from 'pino';
import type { TemplateInfo, TemplateSource } from '../source.js';
import { OwnBlocks } from '../../../stratum/block-first.js';
import { EXTRANONCE1_SIZE } from '../../../stratum/extranonce.js';
import { ShareKeySet } from './share-keys.js';

/** One unit of work broadcast to miners. */
export interface Job {
  id: string;
  seq: number;
  template: JobTemplate;
  clean: boolean;
  /** Network difficulty in the algorithm's Stratum unit. */
  networkDifficulty: number;
  /** The mining.notify line sent for this job (with its clean_jobs flag), newline included. */
  notifyLine: string;
  /** The same with clean_jobs=true: the first job a session receives (it must drop earlier work). */
  cleanNotifyLine: string;
  /** Built before the template on a new tip: the coinbase alone, no transactions. */
  coinbaseOnly: boolean;
  /** Set once a later job had clean_jobs: shares for it are stale (21). */
  stale: boolean;
  /** What a share on a stale job is told: 'Stale job', or why the coin's work is paused. */
  staleMessage: string;
  /** Block hashes already accepted for this job (duplicate detection); emptied once it is stale. */
  seen: ShareKeySet;
  /** Shares refused after a hash (up to MAX_REMEMBERED_REFUSALS): re-sent, they are not hashed again. */
  refused: ShareKeySet;
  createdMs: number;
  /** When a later job replaced it as the current one (undefined while it is the current job). */
  supersededMs: number | undefined;
}

export interface JobManagerOptions {
  poolTag: string;
  extranonce2Size: number;
  logger: Logger;
  /** How many recent jobs stay known (older ones answer "job not found"). */
  keepJobs?: number;
  /**
   * How long a job stays valid once a later one (a refresh on the same tip) replaced it: miners
   * switch at the next notify, so only shares already in flight arrive later. Older ones answer
   * "job not found", and their duplicate sets are freed. Default 120 s.
   */
  supersededLifetimeMs?: number;
}

/**
 * Turns each template of a coin into a job and tells every listener (the sessions). A template
 * on a new tip (or with a new previous block) gives clean_jobs=true and makes every earlier job
 * stale; a refresh on the same tip keeps earlier jobs valid. A new tip heard of before its
 * template (TemplateSource.onTip) gets a coinbase-only job at once (clean); the full template on
 * that tip then follows as a job that does not make the coinbase-only one stale.
 */
export class JobManager {
  readonly algorithm: Algorithm;
  private readonly jobs = new Map<string, Job>();
  private readonly listeners = new Set<(job: Job) => void>();
  private payout: { address: string; script: Buffer } | undefined;
  private readonly keepJobs: number;
  private readonly supersededLifetimeMs: number;
  private seq = 0;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeTips: (() => void) | undefined;
  /** A template whose job follows the coinbase-only one sent for its tip (next turn). */
  private deferred: BlockTemplateRpc | undefined;
  /** The node's template behind the newest job (what a coinbase-only job on the next tip copies). */
  private lastTemplate: BlockTemplateRpc | undefined;
  current: Job | undefined;
  /**
   * Previous-block hashes (RPC order) the pool's own blocks extend: a job on one is stale at once,
   * before the template on the pool's block arrives (block-first.ts, the OWN-BLOCK RULE).
   */
  readonly ownBlocks = new OwnBlocks();

  constructor(
    readonly source: TemplateSource,
    private readonly options: JobManagerOptions,
  ) {
    this.algorithm = algorithmOf(source.coin);
    this.keepJobs = options.keepJobs ?? 64;
    this.supersededLifetimeMs = options.supersededLifetimeMs ?? 120_000;
  }

  /**
   * The coinbase's payout script, read when a job is built: a source fed by the core's job feed
   * learns its pool address only with the core's first job (a coin the core does not publish yet
   * has a port that turns miners away meanwhile).
   */
  private payoutScript(): Buffer {
    const address = this.source.poolAddress;
    if (this.payout?.address === address) return this.payout.script;
    try {
      this.payout = { address, script: addressToOutputScript(address, this.source.params) };
      return this.payout.script;
    } catch (error) {
      throw new Error(
        `${this.source.coin} pool address "${address}" cannot receive a coinbase: ${(error as Error).message}`,
      );
    }
  }

  start(): void {
    this.unsubscribe ??= this.source.onTemplate((tpl) => this.accept(tpl));
    this.unsubscribeTips ??= this.source.onTip?.((tip) => this.acceptTip(tip));
    const initial = this.source.current();
    if (initial && !this.current) this.accept(initial);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unsubscribeTips?.();
    this.unsubscribeTips = undefined;
    this.deferred = undefined;
  }

  /**
   * No node backs the coin's work: every job goes stale (its shares are answered `message`) and
   * there is no current job until the next template, which then goes out with clean_jobs=true.
   */
  pause(message: string): void {
    this.deferred = undefined;
    for (const job of this.jobs.values()) {
      makeStale(job);
      job.staleMessage = message;
    }
    this.current = undefined;
  }

  /**
   * The coin's nodes have been silent past the limit, though the pause may not be announced yet
   * (coin-availability.ts hears it at the health check's next tick): no share is credited now.
   */
  silent(): boolean {
    return this.source.silentPastLimit?.() ?? false;
  }

  /** How many jobs are known (current, superseded and stale). */
  get size(): number {
    return this.jobs.size;
  }

  /**
   * Forgets jobs beyond `keepJobs` and those replaced more than `supersededLifetimeMs` ago (run on
   * each new job and by the Stratum sweep).
   */
  trim(now = Date.now()): void {
    for (const [id, job] of this.jobs) {
      const expired = job.supersededMs !== undefined && now - job.supersededMs > this.supersededLifetimeMs;
      if (!expired && this.jobs.size <= this.keepJobs) break;
      makeStale(job);
      this.jobs.delete(id);
    }
  }

  onJob(listener: (job: Job) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Whether shares on `job` are stale: a later job had clean_jobs, or the pool's own block extends its parent. */
  isStale(job: Job): boolean {
    return job.stale || this.ownBlocks.extends(job.template.prevHashRpc);
  }

  /**
   * A new tip before its template: a coinbase-only job on it, when the coin allows one
   * (see coinbaseOnlyTemplate) and the coin has work (not paused); else the template is awaited.
   */
  acceptTip(tip: TipHeader, previous = this.lastTemplate): Job | undefined {
    if (!previous || !this.current || this.current.template.prevHashRpc === tip.hash.toLowerCase())
      return undefined;
    const tpl = coinbaseOnlyTemplate(previous, tip, this.source.params, Math.floor(Date.now() / 1000));
    return tpl && this.build(tpl, true);
  }

  /**
   * Builds a job from a template; returns it (undefined when the template is unusable). Whether
   * it is clean follows from its previous block, whatever `_info` says. A template with
   * transactions on a new tip first gives a coinbase-only job, sent at once, and its own job on
   * the next turn of the event loop: miners move to the tip without waiting for the merkle
   * branch of thousands of transactions.
   */
  accept(tpl: BlockTemplateRpc, _info?: TemplateInfo): Job | undefined {
    this.deferred = undefined;
    if (tpl.transactions.length > 0) {
      const tip: TipHeader = {
        hash: tpl.previousblockhash,
        height: tpl.height - 1,
        bits: tpl.bits,
        mediantime: (tpl.mintime ?? tpl.curtime) - 1,
      };
      const early = this.acceptTip(tip, tpl);
      if (early) {
        this.deferred = tpl;
        setImmediate(() => {
          if (this.deferred !== tpl) return;
          this.deferred = undefined;
          this.build(tpl, false);
        });
        return early;
      }
    }
    return this.build(tpl, false);
  }

  private build(tpl: BlockTemplateRpc, coinbaseOnly: boolean): Job | undefined {
    let template: JobTemplate;
    try {
      template = jobFromTemplate(tpl, this.source.params, {
        payoutScript: this.payoutScript(),
        poolTag: this.options.poolTag,
        extranonce1Size: EXTRANONCE1_SIZE,
        extranonce2Size: this.options.extranonce2Size,
      });
    } catch (error) {
      this.options.logger.error(
        { err: error, coin: this.source.coin, height: tpl.height },
        'unusable block template; keeping the previous job',
      );
      return undefined;
    }
    // A job on another previous block replaces all work (the template after a coinbase-only job
    // on the same tip does not).
    const clean = !this.current || this.current.template.prevHashRpc !== template.prevHashRpc;
    const job = this.makeJob(template, clean, coinbaseOnly);
    this.lastTemplate = tpl;
    if (clean) {
      for (const old of this.jobs.values()) makeStale(old);
      // A new tip on a parent the pool's block had extended: the node went back to it, work there is live.
      this.ownBlocks.release(template.prevHashRpc);
    }
    if (this.current) this.current.supersededMs ??= job.createdMs;
    this.jobs.set(job.id, job);
    this.trim(job.createdMs);
    this.current = job;
    for (const listener of this.listeners) listener(job);
    return job;
  }

  private makeJob(template: JobTemplate, clean: boolean, coinbaseOnly: boolean): Job {
    const seq = ++this.seq;
    const id = seq.toString(16);
    const line = (cleanJobs: boolean) =>
      `{"id":null,"method":"mining.notify","params":${JSON.stringify(notifyParams(template, id, cleanJobs))}}\n`;
    const notifyLine = line(clean);
    return {
      id,
      seq,
      template,
      clean,
      coinbaseOnly,
      networkDifficulty: targetToDifficulty(template.networkTarget, this.algorithm),
      notifyLine,
      cleanNotifyLine: clean ? notifyLine : line(true),
      stale: false,
      staleMessage: 'Stale job',
      seen: new ShareKeySet(),
      refused: new ShareKeySet(),
      createdMs: Date.now(),
      supersededMs: undefined,
    };
  }
}

/** Shares on a stale job are refused before the duplicate check: its set is no longer needed. */
function makeStale(job: Job): void {
  job.stale = true;
  job.seen.clear();
  job.refused.clear();
}
