import {
  addressToOutputScript,
  algorithmOf,
  jobFromTemplate,
  notifyParams,
  targetToDifficulty,
  type Algorithm,
  type BlockTemplateRpc,
  type JobTemplate,
} from '@manjam/protocol';
import type { Logger } from 'pino';
import type { TemplateInfo, TemplateSource } from '../runtime.js';
import { EXTRANONCE1_SIZE } from './extranonce.js';

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
  /** Set once a later job had clean_jobs: shares for it are stale (21). */
  stale: boolean;
  /** What a share on a stale job is told: 'Stale job', or why the coin's work is paused. */
  staleMessage: string;
  /** Proof-of-work hashes already accepted for this job (duplicate detection). */
  seen: Set<string>;
  createdMs: number;
}

export interface JobManagerOptions {
  poolTag: string;
  extranonce2Size: number;
  logger: Logger;
  /** How many recent jobs stay known (older ones answer "job not found"). */
  keepJobs?: number;
}

/**
 * Turns each template of a coin into a job and tells every listener (the sessions). A template
 * on a new tip (or with a new previous block) gives clean_jobs=true and makes every earlier job
 * stale; a refresh on the same tip keeps earlier jobs valid.
 */
export class JobManager {
  readonly algorithm: Algorithm;
  private readonly jobs = new Map<string, Job>();
  private readonly listeners = new Set<(job: Job) => void>();
  private readonly payoutScript: Buffer;
  private readonly keepJobs: number;
  private seq = 0;
  private unsubscribe: (() => void) | undefined;
  current: Job | undefined;

  constructor(
    readonly source: TemplateSource,
    private readonly options: JobManagerOptions,
  ) {
    this.algorithm = algorithmOf(source.coin);
    this.keepJobs = options.keepJobs ?? 64;
    try {
      this.payoutScript = addressToOutputScript(source.poolAddress, source.params);
    } catch (error) {
      throw new Error(
        `${source.coin} pool address "${source.poolAddress}" cannot receive a coinbase: ${(error as Error).message}`,
      );
    }
  }

  start(): void {
    this.unsubscribe ??= this.source.onTemplate((tpl, info) => this.accept(tpl, info));
    const initial = this.source.current();
    if (initial && !this.current) this.accept(initial, { newTip: true, reason: 'start' });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * No node backs the coin's work: every job goes stale (its shares are answered `message`) and
   * there is no current job until the next template, which then goes out with clean_jobs=true.
   */
  pause(message: string): void {
    for (const job of this.jobs.values()) {
      job.stale = true;
      job.staleMessage = message;
    }
    this.current = undefined;
  }

  onJob(listener: (job: Job) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Builds a job from a template; returns it (undefined when the template is unusable). */
  accept(tpl: BlockTemplateRpc, info: TemplateInfo): Job | undefined {
    let template: JobTemplate;
    try {
      template = jobFromTemplate(tpl, this.source.params, {
        payoutScript: this.payoutScript,
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
    const clean = info.newTip || !this.current || this.current.template.prevHashRpc !== template.prevHashRpc;
    const job = this.makeJob(template, clean);
    if (clean) for (const old of this.jobs.values()) old.stale = true;
    this.jobs.set(job.id, job);
    this.trim();
    this.current = job;
    for (const listener of this.listeners) listener(job);
    return job;
  }

  private makeJob(template: JobTemplate, clean: boolean): Job {
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
      networkDifficulty: targetToDifficulty(template.networkTarget, this.algorithm),
      notifyLine,
      cleanNotifyLine: clean ? notifyLine : line(true),
      stale: false,
      staleMessage: 'Stale job',
      seen: new Set(),
      createdMs: Date.now(),
    };
  }

  private trim(): void {
    while (this.jobs.size > this.keepJobs) {
      const oldest = this.jobs.keys().next().value;
      if (oldest === undefined) break;
      this.jobs.delete(oldest);
    }
  }
}
