// One connection of a JSON-line Stratum dialect that logs in once per connection (the Monero and
// Kaspa dialects): its login state, vardiff, the jobs it answers for, its ban window, and its
// replies, which leave in request order (ReplyOrder) while work notifications leave at once. A
// dialect's session adds only its wire: how a reply, an error and a job look (coins/<family>/stratum).
import type { RequestId } from './framing.js';
import type net from 'node:net';
import type { Logger } from 'pino';
import type { AddressRecord, ShareWindow } from './bans.js';
import { ReplyOrder } from './reply-order.js';
import { Vardiff, type VardiffSettings } from './vardiff.js';
import { writeLine } from './write.js';

/** A JSON-RPC request id. */
export type JsonId = RequestId;

/** Past this many replies held behind shares being judged, a pipelining miner is dropped. */
export const MAX_HELD_LINES = 1_024;

/** What differs between the dialects' sessions, besides their wire. */
export interface JsonSessionShape {
  /** The coin, in the connection's log lines. */
  coin: string;
  /** Jobs a connection keeps answering for (older ones are unknown to it). */
  maxJobs: number;
  /** The lowest difficulty the protocol allows, below the port's vardiff minimum. */
  minDifficulty: number;
}

export abstract class JsonSession<M, J> {
  /** The extra nonce in hex: the session's id on the wire and in logs. */
  readonly id: string;
  miner: M | undefined;
  login = '';
  agent = '';
  /** An account login is being looked up (later lines wait their turn behind its ticket). */
  loggingIn = false;
  /** Requests for methods this dialect does not know (the connection is closed past a limit). */
  unknownMethods = 0;
  readonly vardiff: Vardiff;
  readonly jobs = new Map<string, J>();
  /** Submits and invalid ones since the last ban verdict on this connection. */
  readonly window: ShareWindow = { submits: 0, invalid: 0 };
  readonly connectedMs = Date.now();
  lastReceivedMs = this.connectedMs;
  closed = false;
  readonly order: ReplyOrder;
  private jobCounter = 0;

  constructor(
    readonly socket: net.Socket,
    readonly address: AddressRecord,
    readonly extraNonce: Buffer,
    vardiff: VardiffSettings,
    private readonly logger: Logger,
    private readonly shape: JsonSessionShape,
  ) {
    this.id = extraNonce.toString('hex');
    this.vardiff = new Vardiff(vardiff, shape.minDifficulty, Date.now());
    this.order = new ReplyOrder(
      (line) => this.write(line),
      () => undefined,
    );
  }

  /** A success reply (in request order; with a ticket, the answer of a request that took one). */
  abstract reply(id: JsonId, result: unknown, ticket?: number): void;

  /** The dialect's generic error with `message` (an unknown method, a handler that failed). */
  abstract fail(id: JsonId, message: string): void;

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug(
      { session: this.id, ip: this.address.ip, reason },
      `${this.shape.coin} stratum connection closed`,
    );
    const socket = this.socket;
    // Replies already written leave first, and after the sink's flush of the shares they accept.
    process.nextTick(() => {
      while (socket.writableCorked > 0) socket.uncork();
      socket.destroy();
    });
  }

  /** The next job's number on this connection (1, 2, ...). */
  protected nextJobNumber(): number {
    return ++this.jobCounter;
  }

  /** Keeps `job` answerable; the oldest past `maxJobs` is forgotten. */
  protected remember(id: string, job: J): void {
    this.jobs.set(id, job);
    for (const old of this.jobs.keys()) {
      if (this.jobs.size <= this.shape.maxJobs) break;
      this.jobs.delete(old);
    }
  }

  /** A reply line in request order, or the answer of a ticket. */
  protected answer(line: string, ticket: number | undefined): void {
    if (this.closed) return;
    if (ticket !== undefined) this.order.answer(ticket, line);
    else this.order.send(line);
    if (this.order.held > MAX_HELD_LINES) this.close('too many requests in flight');
  }

  /** A line now, ahead of replies still owed (work never waits behind shares). */
  protected write(line: string): void {
    if (!this.closed) writeLine(this.socket, line, () => this.close('not reading'));
  }
}
