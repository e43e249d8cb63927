import type { Socket } from 'node:net';
import { difficultyToTarget, MIN_SHARE_DIFFICULTY, type StratumError } from '@manjam/protocol';
import type { MinerRef } from '../../../shares/types.js';
import type { AddressRecord, ShareWindow } from '../../../stratum/bans.js';
import type { PortRuntime, QueuedRequest, StratumId, StratumSession } from './context.js';
import type { Job } from './jobs.js';
import type { RejectionKind } from '../../../stratum/rejections.js';
import { ReplyOrder } from '../../../stratum/reply-order.js';
import { Vardiff } from '../../../stratum/vardiff.js';
import { writeLine } from '../../../stratum/write.js';

/** Past this many lines held behind an unanswered share, a miner is dropped (it pipelines without reading). */
const MAX_HELD_LINES = 4_096;

function difficultyLine(difficulty: number): string {
  return `{"id":null,"method":"mining.set_difficulty","params":[${JSON.stringify(difficulty)}]}\n`;
}

let nextSessionId = 1;

/** Writes a JSON-RPC id as the miner sent it. */
export function idJson(id: StratumId): string {
  return typeof id === 'number' ? String(id) : JSON.stringify(id);
}

/**
 * One miner connection: subscription, authorized logins, version mask, share difficulty.
 * Requests are handled and answered in arrival order: while an async handler (authorize) runs,
 * later requests wait in `waiting`; replies go through a ReplyOrder so a share answered later
 * (batch hash, worker thread) still leaves before the replies to the requests after it.
 * A new difficulty is announced at once (mining.set_difficulty) but applies to jobs sent from
 * the next mining.notify on; shares on earlier jobs are checked against the lower of the old
 * and new difficulty and credited at that difficulty.
 */
export class Session implements StratumSession {
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
  readonly connectedMs = Date.now();
  lastReceivedMs = this.connectedMs;
  /** Submits and invalid ones since the last ban verdict on this connection. */
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  /** Authorizes refused on this connection (the connection is closed past a limit). */
  refusedAuthorizes = 0;
  /** Requests for methods this dialect does not know (the connection is closed past a limit). */
  unknownMethods = 0;
  /** An async handler of this connection is running: later requests wait. */
  busy = false;
  readonly waiting: QueuedRequest[] = [];
  /** Runs the waiting requests (set by the port). */
  resume: () => void = () => undefined;
  readonly order = new ReplyOrder(
    (line) => this.write(line),
    () => {
      if (this.waiting.length > 0) this.resume();
    },
  );
  closed = false;
  readonly ip: string;

  constructor(
    readonly socket: Socket,
    readonly address: AddressRecord,
    readonly port: PortRuntime,
  ) {
    this.ip = address.ip;
    this.vardiff = new Vardiff(port.config.vardiff, MIN_SHARE_DIFFICULTY[port.algorithm], Date.now());
    this.difficulty = this.vardiff.difficulty;
    this.olderDifficulty = this.difficulty;
    this.target = difficultyToTarget(this.difficulty, port.algorithm);
    this.olderTarget = this.target;
  }

  /** Whether a request of this method must wait behind the pending ones (non-submits wait for answers owed). */
  mustWait(method: string): boolean {
    return this.busy || (method !== 'mining.submit' && this.order.pending);
  }

  /** Sends a line in request order (behind replies still owed). */
  send(line: string): void {
    if (this.closed) return;
    this.order.send(line);
    if (this.order.held > MAX_HELD_LINES) this.close('too many requests in flight');
  }

  /** A reply; with a ticket (see ReplyOrder), the answer to a request that took one. */
  reply(id: StratumId, resultJson: string, ticket?: number): void {
    this.answer(`{"id":${idJson(id)},"result":${resultJson},"error":null}\n`, ticket);
  }

  error(id: StratumId, error: StratumError, ticket?: number): void {
    this.answer(`{"id":${idJson(id)},"result":null,"error":${JSON.stringify(error)}}\n`, ticket);
  }

  shareAccepted(id: StratumId, ticket?: number): void {
    this.reply(id, 'true', ticket);
  }

  shareRefused(id: StratumId, _kind: RejectionKind, error: StratumError, ticket?: number): void {
    this.error(id, error, ticket);
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
    this.write(difficultyLine(difficulty));
  }

  /**
   * Sends a job, switching to a pending difficulty first (lowered to the job's network difficulty
   * when above it). The first job of a session is clean.
   * Work lines (mining.set_difficulty, mining.notify) are written at once, ahead of replies still
   * owed to shares being judged (a miner matches replies by id, and work lines keep their own
   * order), so a new tip never waits behind a batch of shares.
   */
  sendJob(job: Job): void {
    // Never above the job's network difficulty (vardiff.ts capAt): announced ahead of the job.
    if (this.vardiff.capAt(job.networkDifficulty)) {
      const capped = this.vardiff.difficulty;
      if (capped !== (this.pendingDifficulty ?? this.difficulty)) this.announceDifficulty(capped);
    }
    if (!this.working) {
      this.working = true;
      this.write(difficultyLine(this.difficulty));
      this.write(job.cleanNotifyLine);
      return;
    }
    if (this.pendingDifficulty !== undefined) this.applyDifficulty(this.pendingDifficulty, job.seq);
    this.write(job.notifyLine);
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
    // Replies already written (e.g. the error that explains the close) leave before the socket
    // goes, but not before the share journal has written the shares they accept: its flush was
    // queued on process.nextTick when it corked this socket, so it runs before this one.
    const socket = this.socket;
    process.nextTick(() => {
      while (socket.writableCorked > 0) socket.uncork();
      socket.destroy();
    });
  }

  private answer(line: string, ticket: number | undefined): void {
    if (ticket === undefined) this.send(line);
    else if (!this.closed) this.order.answer(ticket, line);
  }

  private write(line: string): void {
    if (!this.closed) writeLine(this.socket, line, () => this.close('not reading'));
  }

  private applyDifficulty(difficulty: number, fromSeq: number): void {
    const older = Math.min(this.difficulty, difficulty);
    this.olderDifficulty = older;
    this.olderTarget =
      older === this.difficulty ? this.target : difficultyToTarget(older, this.port.algorithm);
    this.difficulty = difficulty;
    this.target = difficultyToTarget(difficulty, this.port.algorithm);
    this.diffFromSeq = fromSeq;
    this.pendingDifficulty = undefined;
  }
}
