import type { Socket } from 'node:net';
import { difficultyToTarget, MIN_SHARE_DIFFICULTY, type StratumError } from '@manjam/protocol';
import type { MinerRef } from '../shares/types.js';
import type { PortRuntime } from './context.js';
import type { Job } from './jobs.js';
import { Vardiff } from './vardiff.js';

/** Past this many bytes waiting to be sent, a miner that does not read is dropped. */
const MAX_WRITE_BACKLOG = 512 * 1024;

export type StratumId = number | string | null;

let nextSessionId = 1;

/** Writes a JSON-RPC id as the miner sent it. */
export function idJson(id: StratumId): string {
  return typeof id === 'number' ? String(id) : JSON.stringify(id);
}

/**
 * One miner connection: subscription, authorized logins, version mask, share difficulty.
 * A new difficulty is announced at once (mining.set_difficulty) but applies to jobs sent from
 * the next mining.notify on; shares on earlier jobs are checked against the lower of the old
 * and new difficulty and credited at that difficulty.
 */
export class Session {
  readonly id = nextSessionId++;
  extranonce1: Buffer | undefined;
  subscribed = false;
  userAgent = '';
  readonly logins = new Map<string, MinerRef>();
  versionMask = 0;
  readonly vardiff: Vardiff;
  difficulty: number;
  target: bigint;
  /** For jobs sent before the last switch: min(previous, current) difficulty and its target. */
  olderDifficulty: number;
  olderTarget: bigint;
  /** Jobs with seq >= this use `difficulty`. */
  diffFromSeq = 0;
  pendingDifficulty: number | undefined;
  /** True once work has been sent (after the first authorize). */
  working = false;
  lastReceivedMs = Date.now();
  /** Submits and invalid ones since the last ban check. */
  windowSubmits = 0;
  windowInvalid = 0;
  closed = false;

  constructor(
    readonly socket: Socket,
    readonly ip: string,
    readonly port: PortRuntime,
  ) {
    this.vardiff = new Vardiff(port.config.vardiff, MIN_SHARE_DIFFICULTY[port.algorithm], Date.now());
    this.difficulty = this.vardiff.difficulty;
    this.olderDifficulty = this.difficulty;
    this.target = difficultyToTarget(this.difficulty, port.algorithm);
    this.olderTarget = this.target;
  }

  send(line: string): void {
    if (this.closed) return;
    if (this.socket.writableLength > MAX_WRITE_BACKLOG) {
      this.close('not reading');
      return;
    }
    this.socket.write(line);
  }

  reply(id: StratumId, resultJson: string): void {
    this.send(`{"id":${idJson(id)},"result":${resultJson},"error":null}\n`);
  }

  error(id: StratumId, error: StratumError): void {
    this.send(`{"id":${idJson(id)},"result":null,"error":${JSON.stringify(error)}}\n`);
  }

  notify(method: string, params: unknown[]): void {
    this.send(`{"id":null,"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`);
  }

  /** Announces a new difficulty; it applies from the next job sent to this session. */
  announceDifficulty(difficulty: number): void {
    if (!this.working) {
      this.applyDifficulty(difficulty, 0);
      return;
    }
    this.pendingDifficulty = difficulty;
    this.notify('mining.set_difficulty', [difficulty]);
  }

  /** Sends a job, switching to a pending difficulty first. */
  sendJob(job: Job): void {
    if (!this.working) {
      this.working = true;
      this.notify('mining.set_difficulty', [this.difficulty]);
    } else if (this.pendingDifficulty !== undefined) {
      this.applyDifficulty(this.pendingDifficulty, job.seq);
    }
    this.send(job.notifyLine);
  }

  /** The difficulty a share on `job` must meet, and its target. */
  requirementFor(job: Job): { difficulty: number; target: bigint } {
    return job.seq >= this.diffFromSeq
      ? { difficulty: this.difficulty, target: this.target }
      : { difficulty: this.olderDifficulty, target: this.olderTarget };
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.port.pool.logger.debug({ session: this.id, ip: this.ip, reason }, 'stratum connection closed');
    this.socket.destroy();
  }

  private applyDifficulty(difficulty: number, fromSeq: number): void {
    const older = Math.min(this.difficulty, difficulty);
    this.olderDifficulty = older;
    this.olderTarget = older === this.difficulty ? this.target : difficultyToTarget(older, this.port.algorithm);
    this.difficulty = difficulty;
    this.target = difficultyToTarget(difficulty, this.port.algorithm);
    this.diffFromSeq = fromSeq;
    this.pendingDifficulty = undefined;
  }
}
