// One Stratum V2 mining channel as the V1 share path sees a session (context.ts's StratumSession):
// the shared judging (submit.ts judgeSubmit), SHA-256d queue, share book, ban judge, vardiff
// sweep and job broadcast (ports.ts) take a channel as they take a V1 connection. Its extranonce
// prefix is the kit's 4-byte extranonce1; an extended channel's miner fills the job's
// extranonce2 bytes, a standard channel's are zeros chosen by the pool.
import type { Socket } from 'node:net';
import {
  difficultyToTarget,
  MIN_SHARE_DIFFICULTY,
  targetToDifficulty,
  POOL_VERSION_MASK,
  STRATUM_ERROR,
  type StratumError,
} from '@manjam/protocol';
import { encodeMessage, type Frame, type Sv2Message } from '@manjam/protocol/sv2';
import type { MinerRef } from '../../../shares/types.js';
import type { AddressRecord, ShareWindow } from '../../../stratum/bans.js';
import type { RejectionKind } from '../../../stratum/rejections.js';
import { ReplyOrder } from '../../../stratum/reply-order.js';
import { Vardiff } from '../../../stratum/vardiff.js';
import type { PortRuntime, QueuedRequest, StratumId, StratumSession } from '../stratum/context.js';
import type { Job } from '../stratum/jobs.js';
import { extendedJobFrame, newPrevHashFrame, standardJob, targetToU256 } from './work.js';

/** What a channel needs of its connection. */
export interface ChannelHost {
  readonly socket: Socket;
  readonly address: AddressRecord;
  lastReceivedMs: number;
  send(message: Sv2Message): void;
  /** Encoded messages, written together. */
  sendFrames(frames: readonly Frame[]): void;
  close(reason: string): void;
}

/** SubmitShares.Error codes (SV2 §5.3.15) for each kind of the kit's rejection vocabulary. */
function errorCode(kind: RejectionKind, error: StratumError): string {
  switch (kind) {
    case 'stale':
      return 'stale-share';
    case 'duplicate':
      return 'duplicate-share';
    case 'low_difficulty':
      return 'difficulty-too-low';
    case 'unauthorized':
    case 'not_subscribed':
      return 'invalid-channel-id';
    case 'busy':
      return 'server-busy';
    case 'invalid':
      return error[0] === STRATUM_ERROR.JOB_NOT_FOUND ? 'invalid-job-id' : 'invalid-share';
  }
}

let nextId = 1;

export class Sv2Channel implements StratumSession {
  /** Unique among the V1 sessions' ids too (logs): numbered from 2^31 up, V1 sessions from 1. */
  readonly id = 2 ** 31 + nextId++;
  readonly subscribed = true;
  userAgent = '';
  readonly logins = new Map<string, MinerRef>();
  versionMask = POOL_VERSION_MASK;
  /** The pool's vardiff, or one held at the miner's own target (followMinerTarget). */
  vardiff: Vardiff;
  /** The miner sets this channel's target itself (a max_target it names): the pool's vardiff holds it there. */
  minerTarget = false;
  difficulty: number;
  target: bigint;
  olderDifficulty: number;
  olderTarget: bigint;
  diffFromSeq = 0;
  pendingDifficulty: number | undefined = undefined;
  working = false;
  readonly connectedMs = Date.now();
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  refusedAuthorizes = 0;
  unknownMethods = 0;
  busy = false;
  readonly waiting: QueuedRequest[] = [];
  resume: () => void = () => undefined;
  /** Tickets only: a V2 answer names its sequence number, so it is written when judged (see shareAccepted). */
  readonly order = new ReplyOrder(
    () => undefined,
    () => undefined,
  );
  closed = false;
  readonly ip: string;
  /** Accepted submits not yet acknowledged: one SubmitShares.Success per channel and turn. */
  private acked = { count: 0, last: 0, scheduled: false };
  /** The last job sent (its seq), so a new difficulty applies from the job after it. */
  private lastJobSeq = 0;

  constructor(
    readonly host: ChannelHost,
    readonly port: PortRuntime,
    readonly channelId: number,
    readonly kind: 'standard' | 'extended',
    readonly extranonce1: Buffer,
    /** A standard channel's extranonce2 (zeros, the job's size); an extended channel's miner sends its own. */
    readonly standardExtranonce2: Buffer,
    readonly miner: MinerRef,
    readonly login: string,
  ) {
    this.ip = host.address.ip;
    this.logins.set(login, miner);
    this.vardiff = new Vardiff(port.config.vardiff, MIN_SHARE_DIFFICULTY[port.algorithm], Date.now());
    this.difficulty = this.vardiff.difficulty;
    this.olderDifficulty = this.difficulty;
    this.target = difficultyToTarget(this.difficulty, port.algorithm);
    this.olderTarget = this.target;
  }

  get socket(): Socket {
    return this.host.socket;
  }

  get address(): AddressRecord {
    return this.host.address;
  }

  get lastReceivedMs(): number {
    return this.host.lastReceivedMs;
  }

  set lastReceivedMs(ms: number) {
    this.host.lastReceivedMs = ms;
  }

  /** The channel's extranonce prefix as sent in Open*MiningChannel.Success. */
  get extranoncePrefix(): Buffer {
    return this.kind === 'standard'
      ? Buffer.concat([this.extranonce1, this.standardExtranonce2])
      : this.extranonce1;
  }

  mustWait(): boolean {
    return false;
  }

  send(): void {
    // V1 JSON lines have no V2 form; a channel's messages go through host.send.
  }

  reply(): void {}

  error(): void {}

  notify(): void {}

  /**
   * Accepted: counted into this turn's SubmitShares.Success (sent after the share journal's
   * flush, which runs on process.nextTick, so never before the share is journaled).
   */
  shareAccepted(id: StratumId, ticket?: number): void {
    if (ticket !== undefined) this.order.answer(ticket, '');
    if (this.closed) return;
    this.acked.count++;
    this.acked.last = Math.max(this.acked.last, Number(id));
    if (this.acked.scheduled) return;
    this.acked.scheduled = true;
    setImmediate(() => this.flushAcks());
  }

  shareRefused(id: StratumId, kind: RejectionKind, error: StratumError, ticket?: number): void {
    if (ticket !== undefined) this.order.answer(ticket, '');
    if (this.closed) return;
    const sequenceNumber = Number(id);
    this.host.send({
      type: 'SubmitSharesError',
      channelId: this.channelId,
      sequenceNumber,
      errorCode: errorCode(kind, error),
    });
  }

  /**
   * Holds the channel at the target its miner names (a proxy running its own vardiff, such as
   * SRI's translator, names the target it gives its miners), held at the port's vardiff maximum
   * when harder: the pool's vardiff then never moves it, so what the proxy accepts from its miners
   * is what the pool credits. `target` is used exactly when the maximum leaves it alone. A target
   * easier than the port's minimum is not followed (false): the channel has the pool's vardiff.
   */
  followMinerTarget(target: bigint): boolean {
    const { algorithm, config } = this.port;
    const protocolMinimum = MIN_SHARE_DIFFICULTY[algorithm];
    const asked = targetToDifficulty(target, algorithm);
    if (asked < Math.max(config.vardiff.min, protocolMinimum)) {
      if (this.minerTarget) {
        this.minerTarget = false;
        this.vardiff = new Vardiff(config.vardiff, protocolMinimum, Date.now());
        this.vardiff.set(this.difficulty, Date.now());
      }
      return false;
    }
    const held = Math.min(config.vardiff.max, asked);
    this.minerTarget = true;
    this.vardiff = new Vardiff(
      { ...config.vardiff, start: held, min: held, max: held },
      protocolMinimum,
      Date.now(),
    );
    const exact = held === asked ? target : difficultyToTarget(held, algorithm);
    if (exact !== this.target) this.announceDifficulty(held, exact);
    return true;
  }

  /**
   * A new difficulty (and its target, when the miner named it exactly): SetTarget now; jobs
   * already sent keep the lower of the two targets.
   */
  announceDifficulty(difficulty: number, target = difficultyToTarget(difficulty, this.port.algorithm)): void {
    const older = Math.min(this.difficulty, difficulty);
    this.olderDifficulty = older;
    this.olderTarget = older === difficulty ? target : this.target;
    this.difficulty = difficulty;
    this.target = target;
    this.diffFromSeq = this.lastJobSeq + 1;
    if (this.working && !this.closed)
      this.host.send({
        type: 'SetTarget',
        channelId: this.channelId,
        maximumTarget: targetToU256(this.target),
      });
  }

  /** A job: a future one and SetNewPrevHash when it is the channel's first or on a new tip. */
  sendJob(job: Job): void {
    if (this.closed) return;
    const future = !this.working || job.clean;
    this.working = true;
    // Never above the job's network difficulty (vardiff.ts capAt): SetTarget ahead of the job, as
    // V1 announces mining.set_difficulty ahead of its notify. A target the miner named is its floor.
    if (this.vardiff.capAt(job.networkDifficulty)) this.announceDifficulty(this.vardiff.difficulty);
    this.lastJobSeq = job.seq;
    // An extended channel's job is the job's own bytes with this channel's id; a standard
    // channel's carries the merkle root of its own coinbase.
    const jobFrame =
      this.kind === 'extended'
        ? extendedJobFrame(this.channelId, job, future)
        : encodeMessage(standardJob(this.channelId, job, this.extranoncePrefix, future));
    this.host.sendFrames(future ? [jobFrame, newPrevHashFrame(this.channelId, job)] : [jobFrame]);
  }

  requirementFor(job: Job): { difficulty: number; target: bigint } {
    return job.seq >= this.diffFromSeq
      ? { difficulty: this.difficulty, target: this.target }
      : { difficulty: this.olderDifficulty, target: this.olderTarget };
  }

  /** The ban judge or the sweep closing a channel closes its connection (the miner's fingerprint). */
  close(reason: string): void {
    this.host.close(reason);
  }

  private flushAcks(): void {
    const { count, last } = this.acked;
    this.acked = { count: 0, last: 0, scheduled: false };
    if (this.closed || count === 0) return;
    this.host.send({
      type: 'SubmitSharesSuccess',
      channelId: this.channelId,
      lastSequenceNumber: last,
      newSubmitsAcceptedCount: count,
      // Each accepted submit met the channel's target: the sum counts them.
      newSharesSum: BigInt(count),
    });
  }
}
