// One KAS Stratum connection: the kit's JSON-line session (login state, vardiff, jobs, replies in
// request order, ../../../stratum/json-session.ts) with the Kaspa wire: what its miner said it is
// (agent -> notify form, subscribe reply, power-of-two difficulties), its extranonce (the kit's
// 4-byte value: 8 hex digits lead every nonce, 4 bytes are the miner's), its reply and error lines
// and its notifications, which leave at once (or in order behind owed replies) and carry no id.
import type net from 'node:net';
import {
  kaspaNotifyParamsJson,
  kaspaShareTarget,
  kaspaTargetWords,
  type KaspaNotifyForm,
} from '@manjam/protocol/kaspa';
import { STRATUM_ERROR, stratumError, type StratumError } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { AddressRecord } from '../../../stratum/bans.js';
import { JsonSession, type JsonId } from '../../../stratum/json-session.js';
import type { VardiffSettings } from '../../../stratum/vardiff.js';
import type { KaspaTemplate } from '../template-source.js';
import type { KaspaMinerRef } from './types.js';

/** Jobs a connection answers for (older ones: "Job not found"); covers KAS_JOB_VALID_MS at 4 jobs/s. */
export const MAX_JOBS = 64;
/** Kaspa nonces are 8 bytes; the extranonce takes the leading ones. */
export const KASPA_NONCE_BYTES = 8;
/**
 * The extranonce every KAS miner gets: 2 bytes, what IceRiver and BzMiner firmware take (the fact
 * kaspa-stratum-bridge is built on), leaving 6 bytes (2^48 nonces a job) to the miner. GPU miners
 * take any size. Bitmain KS firmware gets the same 2 bytes in its subscribe reply (the bridge, a
 * solo bridge, gives it none; a pool must keep its miners' nonce spaces apart). Unique in the
 * process (ports.ts: 65,536 values; 256 with `stratum.instanceId`, whose byte leads).
 */
export const KASPA_EXTRANONCE_BYTES = 2;

/** Agents that take the 80-hex big job (BzMiner, IceRiver firmware); the rest get the four words. */
const BIG_JOB_AGENT = /BzMiner|IceRiverMiner/i;
/** IceRiver firmware takes only powers of two in mining.set_difficulty. */
const POWER_OF_TWO_AGENT = /IceRiverMiner/i;
/** Bitmain KS firmware: subscribe answered `[null, extranonce, nonce bytes left]`. */
const BITMAIN_AGENT = /GodMiner/i;

export type Id = JsonId;

/**
 * `difficulty` as a power of two within [min, max]: rounded down, or up when down falls under
 * `min`; `difficulty` itself when no power of two lies within the bounds.
 */
export function powerOfTwoWithin(difficulty: number, min: number, max: number): number {
  const down = 2 ** Math.floor(Math.log2(difficulty));
  if (down >= min && down <= max) return down;
  const up = down * 2;
  return up >= min && up <= max ? up : difficulty;
}

export interface KaspaJob {
  id: string;
  template: KaspaTemplate;
  difficulty: number;
  targetWords: Uint32Array;
}

export class KaspaSession extends JsonSession<KaspaMinerRef, KaspaJob> {
  readonly extranonceHex: string;
  subscribed = false;
  form: KaspaNotifyForm = 'words';
  powersOfTwo = false;
  bitmain = false;
  /** The difficulty last announced with mining.set_difficulty. */
  sentDifficulty: number | undefined;

  constructor(
    socket: net.Socket,
    address: AddressRecord,
    extraNonce: Buffer,
    /** The miner's KASPA_EXTRANONCE_BYTES (the kit's `extraNonce` is the session's id). */
    readonly extranonce: Buffer,
    vardiff: VardiffSettings,
    logger: Logger,
  ) {
    // Kaspa difficulties go far below 1 (a CPU), so no protocol floor beyond the port's own min.
    super(socket, address, extraNonce, vardiff, logger, { coin: 'KAS', maxJobs: MAX_JOBS, minDifficulty: 0 });
    this.extranonceHex = extranonce.toString('hex');
  }

  /** The agent of mining.subscribe decides the dialect's forms. */
  setAgent(agent: string): void {
    this.agent = agent.slice(0, 128);
    this.form = BIG_JOB_AGENT.test(agent) ? 'big-job' : 'words';
    this.powersOfTwo = POWER_OF_TWO_AGENT.test(agent);
    this.bitmain = BITMAIN_AGENT.test(agent);
  }

  /** The difficulty jobs are made at: IceRiver's a power of two within the session's bounds. */
  get difficulty(): number {
    const d = this.vardiff.difficulty;
    return this.powersOfTwo ? powerOfTwoWithin(d, this.vardiff.minimum, this.vardiff.maximum) : d;
  }

  reply(id: Id, result: unknown, ticket?: number): void {
    this.answer(`{"id":${JSON.stringify(id)},"result":${JSON.stringify(result)},"error":null}\n`, ticket);
  }

  error(id: Id, error: StratumError, ticket?: number): void {
    this.answer(`{"id":${JSON.stringify(id)},"result":null,"error":${JSON.stringify(error)}}\n`, ticket);
  }

  fail(id: Id, message: string): void {
    this.error(id, stratumError(STRATUM_ERROR.OTHER, message));
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
    // Never above the template's network difficulty (vardiff.ts capAt).
    this.vardiff.capAt(template.networkDifficulty);
    this.announceDifficulty(ordered);
    const difficulty = this.difficulty;
    const job: KaspaJob = {
      id: this.nextJobNumber().toString(),
      template,
      difficulty,
      targetWords: kaspaTargetWords(kaspaShareTarget(difficulty)),
    };
    this.remember(job.id, job);
    this.notify(
      'mining.notify',
      kaspaNotifyParamsJson(this.form, job.id, template.prePow, template.timestamp),
      ordered,
    );
    return job;
  }
}
