// One XMR Stratum connection: its miner, vardiff, the jobs it answers for and its replies, which
// leave in request order (ReplyOrder) while job notifications leave at once.
//
// EVERY JOB ITS OWN BLOB: the template's 8 reserved bytes hold the connection's extra nonce (4
// bytes, unique pool-wide: ExtranonceAllocator) and the job's number on the connection (4 bytes,
// big-endian). XMRig restarts its nonces at 0 on every new job, so a job on the same template with
// the same blob (a vardiff job, a getjob) would have it hash again what it already submitted; with
// its own blob every job is new work, and a duplicate can only be a nonce repeated on one job.
import type net from 'node:net';
import {
  moneroDifficultyToTarget,
  moneroHashingBlob,
  moneroTargetToDifficulty,
  parseMoneroBlock,
  writeMoneroExtraNonce,
} from '@manjam/protocol/monero';
import type { Logger } from 'pino';
import type { AddressRecord, ShareWindow } from '../../../stratum/bans.js';
import { ReplyOrder } from '../../../stratum/reply-order.js';
import { Vardiff, type VardiffSettings } from '../../../stratum/vardiff.js';
import { writeLine } from '../../../stratum/write.js';
import { MONERO_RESERVE_SIZE, type MoneroTemplate } from './template-source.js';
import type { MoneroMinerRef } from './types.js';

/** Jobs a connection keeps answering for (older ones are "Invalid job id"). */
export const MAX_JOBS = 4;
/** Past this many replies held behind shares being hashed, a pipelining miner is dropped. */
const MAX_HELD_LINES = 1_024;
const ALGO = 'rx/0';

/** A JSON-RPC request id. */
export type Id = number | string | null;

export interface MoneroJob {
  id: string;
  template: MoneroTemplate;
  /** The template blob with the connection's and the job's extra nonce in the reserved bytes. */
  blockBlob: Uint8Array;
  hashingBlob: Uint8Array;
  nonceOffset: number;
  target: string;
  /** The difficulty the miner works to for `target`. */
  difficulty: bigint;
  /** Nonces accepted, or queued for a hash (a nonce is judged once per job). */
  nonces: Set<number>;
  /** Nonces refused after a hash (up to MAX_REMEMBERED_REFUSALS): re-sent, they are not hashed again. */
  refused: Set<number>;
}

export const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

/** A job as the miner gets it (login reply, getjob reply, `job` notification). */
export function jobParams(job: MoneroJob): Record<string, unknown> {
  return {
    blob: hex(job.hashingBlob),
    job_id: job.id,
    target: job.target,
    height: job.template.height,
    seed_hash: job.template.seedHashHex,
    algo: ALGO,
  };
}

export class MoneroSession {
  readonly id: string;
  miner: MoneroMinerRef | undefined;
  login = '';
  agent = '';
  /** An account login is being looked up. */
  loggingIn = false;
  /** Requests for methods this dialect does not know (the connection is closed past a limit). */
  unknownMethods = 0;
  /** Lets go of the RandomX pool held since the login (randomx-seeds.ts); called when the connection closes. */
  releaseRandomX: (() => void) | undefined;
  readonly vardiff: Vardiff;
  readonly jobs = new Map<string, MoneroJob>();
  private jobCounter = 0;
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  readonly connectedMs = Date.now();
  lastReceivedMs = this.connectedMs;
  closed = false;
  readonly order: ReplyOrder;

  constructor(
    readonly socket: net.Socket,
    readonly address: AddressRecord,
    readonly extraNonce: Buffer,
    vardiff: VardiffSettings,
    private readonly logger: Logger,
  ) {
    this.id = extraNonce.toString('hex');
    this.vardiff = new Vardiff(vardiff, 1, Date.now());
    this.order = new ReplyOrder(
      (line) => this.write(line),
      () => undefined,
    );
  }

  reply(id: Id, result: unknown, ticket?: number): void {
    this.answer(
      `{"id":${JSON.stringify(id)},"jsonrpc":"2.0","error":null,"result":${JSON.stringify(result)}}\n`,
      ticket,
    );
  }

  error(id: Id, message: string, ticket?: number): void {
    this.answer(
      `{"id":${JSON.stringify(id)},"jsonrpc":"2.0","error":${JSON.stringify({ code: -1, message })},"result":null}\n`,
      ticket,
    );
  }

  /** A new job on `template` at the session's current difficulty. */
  makeJob(template: MoneroTemplate): MoneroJob {
    const number = ++this.jobCounter;
    const extra = Buffer.alloc(MONERO_RESERVE_SIZE);
    this.extraNonce.copy(extra);
    extra.writeUInt32BE(number % 2 ** 32, this.extraNonce.length);
    const blockBlob = writeMoneroExtraNonce(
      template.blob,
      template.reservedOffset,
      MONERO_RESERVE_SIZE,
      extra,
    );
    const block = parseMoneroBlock(blockBlob);
    const target = moneroDifficultyToTarget(BigInt(Math.max(1, Math.round(this.vardiff.difficulty))));
    const job: MoneroJob = {
      id: `${template.seq.toString(36)}.${number.toString(36)}.${this.id}`,
      template,
      blockBlob,
      hashingBlob: moneroHashingBlob(blockBlob, block),
      nonceOffset: block.header.nonceOffset,
      target,
      difficulty: moneroTargetToDifficulty(target),
      nonces: new Set(),
      refused: new Set(),
    };
    this.jobs.set(job.id, job);
    for (const old of this.jobs.keys()) {
      if (this.jobs.size <= MAX_JOBS) break;
      this.jobs.delete(old);
    }
    return job;
  }

  /** Sends a job notification at once (ahead of replies still owed: a new tip never waits behind shares). */
  notifyJob(job: MoneroJob): void {
    this.write(`{"jsonrpc":"2.0","method":"job","params":${JSON.stringify(jobParams(job))}}\n`);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug({ session: this.id, ip: this.address.ip, reason }, 'XMR stratum connection closed');
    const socket = this.socket;
    // Replies already written leave first, and after the sink's flush of the shares they accept.
    process.nextTick(() => {
      while (socket.writableCorked > 0) socket.uncork();
      socket.destroy();
    });
  }

  private answer(line: string, ticket: number | undefined): void {
    if (this.closed) return;
    if (ticket !== undefined) this.order.answer(ticket, line);
    else this.order.send(line);
    if (this.order.held > MAX_HELD_LINES) this.close('too many requests in flight');
  }

  private write(line: string): void {
    if (!this.closed) writeLine(this.socket, line, () => this.close('not reading'));
  }
}
