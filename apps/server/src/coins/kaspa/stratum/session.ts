// One KAS Stratum connection: what its miner said it is (agent -> notify form, subscribe reply,
// power-of-two difficulties), its extranonce (the kit's 4-byte value: 8 hex digits lead every
// nonce, 4 bytes are the miner's), its vardiff, the jobs it answers for and its replies, which
// leave in request order (ReplyOrder) while notifications leave at once and carry no id.
import type net from 'node:net';
import {
  kaspaNotifyParamsJson,
  kaspaShareTarget,
  kaspaTargetWords,
  type KaspaNotifyForm,
} from '@manjam/protocol/kaspa';
import type { StratumError } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { AddressRecord, ShareWindow } from '../../../stratum/bans.js';
import { ReplyOrder } from '../../../stratum/reply-order.js';
import { Vardiff, type VardiffSettings } from '../../../stratum/vardiff.js';
import { writeLine } from '../../../stratum/write.js';
import type { KaspaTemplate } from '../template-source.js';
import type { KaspaMinerRef } from './types.js';

/** Jobs a connection answers for (older ones: "Job not found"); covers KAS_JOB_VALID_MS at 4 jobs/s. */
export const MAX_JOBS = 64;
const MAX_HELD_LINES = 1_024;
/** Kaspa nonces are 8 bytes; the extranonce takes the leading ones. */
export const KASPA_NONCE_BYTES = 8;

/** Agents that take the 80-hex big job (BzMiner, IceRiver firmware); the rest get the four words. */
const BIG_JOB_AGENT = /BzMiner|IceRiverMiner/i;
/** IceRiver firmware takes only powers of two in mining.set_difficulty. */
const POWER_OF_TWO_AGENT = /IceRiverMiner/i;
/** Bitmain KS firmware: subscribe answered `[null, extranonce, nonce bytes left]`. */
const BITMAIN_AGENT = /GodMiner/i;

export type Id = number | string | null;

export interface KaspaJob {
  id: string;
  template: KaspaTemplate;
  difficulty: number;
  targetWords: Uint32Array;
}

export class KaspaSession {
  readonly id: string;
  readonly extranonceHex: string;
  miner: KaspaMinerRef | undefined;
  login = '';
  agent = '';
  subscribed = false;
  authorizing = false;
  form: KaspaNotifyForm = 'words';
  powersOfTwo = false;
  bitmain = false;
  unknownMethods = 0;
  readonly vardiff: Vardiff;
  readonly jobs = new Map<string, KaspaJob>();
  /** The difficulty last announced with mining.set_difficulty. */
  sentDifficulty: number | undefined;
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
    this.extranonceHex = this.id;
    // Kaspa difficulties go far below 1 (a CPU), so no protocol floor beyond the port's own min.
    this.vardiff = new Vardiff(vardiff, 0, Date.now());
    this.order = new ReplyOrder(
      (line) => this.write(line),
      () => undefined,
    );
  }

  /** The agent of mining.subscribe decides the dialect's forms. */
  setAgent(agent: string): void {
    this.agent = agent.slice(0, 128);
    this.form = BIG_JOB_AGENT.test(agent) ? 'big-job' : 'words';
    this.powersOfTwo = POWER_OF_TWO_AGENT.test(agent);
    this.bitmain = BITMAIN_AGENT.test(agent);
  }

  /** The difficulty jobs are made at: IceRiver's rounded down to a power of two. */
  get difficulty(): number {
    const d = this.vardiff.difficulty;
    return this.powersOfTwo ? 2 ** Math.floor(Math.log2(d)) : d;
  }

  reply(id: Id, result: unknown, ticket?: number): void {
    this.answer(`{"id":${JSON.stringify(id)},"result":${JSON.stringify(result)},"error":null}\n`, ticket);
  }

  error(id: Id, error: StratumError, ticket?: number): void {
    this.answer(`{"id":${JSON.stringify(id)},"result":null,"error":${JSON.stringify(error)}}\n`, ticket);
  }

  /** A notification (no id), in order behind replies still owed when `ordered`. */
  notify(method: string, paramsJson: string, ordered = false): void {
    const line = `{"jsonrpc":"2.0","method":"${method}","params":${paramsJson}}\n`;
    if (ordered) this.order.send(line);
    else this.write(line);
  }

  /** mining.set_difficulty when the session's difficulty changed since last said. */
  announceDifficulty(ordered = false): void {
    const difficulty = this.difficulty;
    if (this.sentDifficulty === difficulty) return;
    this.sentDifficulty = difficulty;
    this.notify('mining.set_difficulty', JSON.stringify([difficulty]), ordered);
  }

  /** A new job on `template` at the announced difficulty, sent as mining.notify. */
  sendJob(template: KaspaTemplate, ordered = false): KaspaJob {
    this.announceDifficulty(ordered);
    const difficulty = this.difficulty;
    const job: KaspaJob = {
      id: (++this.jobCounter).toString(),
      template,
      difficulty,
      targetWords: kaspaTargetWords(kaspaShareTarget(difficulty)),
    };
    this.jobs.set(job.id, job);
    for (const old of this.jobs.keys()) {
      if (this.jobs.size <= MAX_JOBS) break;
      this.jobs.delete(old);
    }
    this.notify(
      'mining.notify',
      kaspaNotifyParamsJson(this.form, job.id, template.prePow, template.timestamp),
      ordered,
    );
    return job;
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug({ session: this.id, ip: this.address.ip, reason }, 'KAS stratum connection closed');
    const socket = this.socket;
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
