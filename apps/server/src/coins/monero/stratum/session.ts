// One XMR Stratum connection: the kit's JSON-line session (login state, vardiff, jobs, replies in
// request order, ../../../stratum/json-session.ts) with XMRig's wire: its reply and error lines, its
// jobs and their `job` notifications.
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
import type { AddressRecord } from '../../../stratum/bans.js';
import { JsonSession, type JsonId } from '../../../stratum/json-session.js';
import type { VardiffSettings } from '../../../stratum/vardiff.js';
import { MONERO_RESERVE_SIZE, type MoneroTemplate } from './template-source.js';
import type { MoneroMinerRef } from './types.js';

/** Jobs a connection keeps answering for (older ones are "Invalid job id"). */
export const MAX_JOBS = 4;
const ALGO = 'rx/0';

/** A JSON-RPC request id. */
export type Id = JsonId;

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

export class MoneroSession extends JsonSession<MoneroMinerRef, MoneroJob> {
  /** Lets go of the RandomX pool held since the login (randomx-seeds.ts); called when the connection closes. */
  releaseRandomX: (() => void) | undefined;

  constructor(
    socket: net.Socket,
    address: AddressRecord,
    extraNonce: Buffer,
    vardiff: VardiffSettings,
    logger: Logger,
  ) {
    super(socket, address, extraNonce, vardiff, logger, { coin: 'XMR', maxJobs: MAX_JOBS, minDifficulty: 1 });
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

  fail(id: Id, message: string): void {
    this.error(id, message);
  }

  /** A new job on `template` at the session's current difficulty. */
  makeJob(template: MoneroTemplate): MoneroJob {
    const number = this.nextJobNumber();
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
    // Never above the template's network difficulty (vardiff.ts capAt).
    this.vardiff.capAt(Number(template.networkDifficulty));
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
    this.remember(job.id, job);
    return job;
  }

  /** Sends a job notification at once (ahead of replies still owed: a new tip never waits behind shares). */
  notifyJob(job: MoneroJob): void {
    this.write(`{"jsonrpc":"2.0","method":"job","params":${JSON.stringify(jobParams(job))}}\n`);
  }
}
