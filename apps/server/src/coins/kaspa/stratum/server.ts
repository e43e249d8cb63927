/**
 * The Kaspa Stratum dialect on one port (the seed's 7777, kHeavyHash), as Kaspa ASICs and GPU
 * miners speak it: `mining.subscribe` and `mining.authorize` (login.ts), `mining.submit`
 * (submit.ts), `mining.extranonce.subscribe`; the pool sends `mining.set_extranonce`,
 * `mining.set_difficulty` and `mining.notify` in the form the agent takes (session.ts). The
 * connection skeleton (accept and caps, TLS, framing, the JSON-RPC envelope, timeouts, the vardiff
 * sweep, the ban judge) is the kit's JSON-line server (stratum/json-server.ts, shared with the
 * Monero dialect), and so are reply order, vardiff and the rejection vocabulary; a new template
 * reaches every authorized miner as a new job at once (the source already keeps that to a few a
 * second).
 */
import type net from 'node:net';
import type { AddressRecord } from '../../../stratum/bans.js';
import { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import { JsonStratumServer, type JsonHandler } from '../../../stratum/json-server.js';
import { ShareBook, shareStats } from '../../../stratum/share-book.js';
import type { KaspaTemplate } from '../template-source.js';
import { authorize, subscribe } from './login.js';
import { KASPA_EXTRANONCE_BYTES, KaspaSession } from './session.js';
import { KaspaSubmits } from './submit.js';
import { KAS, type KaspaStats, type KaspaStratumOptions } from './types.js';

type Params = unknown[];

export class KaspaStratumServer extends JsonStratumServer<KaspaSession, KaspaTemplate, Params> {
  readonly stats: KaspaStats = { ...shareStats(), jobsSent: 0 };
  private readonly submits: KaspaSubmits;
  private readonly extranonces: ExtranonceAllocator;
  private readonly stopFollowing: () => void;
  private readonly stopFollowingDown: () => void;
  protected readonly handlers: ReadonlyMap<string, JsonHandler<KaspaSession, Params>>;

  constructor(private readonly options: KaspaStratumOptions) {
    super(options, KAS);
    this.extranonces =
      options.extranonces ??
      new ExtranonceAllocator(undefined, options.stratum.instanceId, KASPA_EXTRANONCE_BYTES);
    this.submits = new KaspaSubmits(options, new ShareBook(this.stats, options.sink, this.judge));
    const logins = { ...options, bans: this.bans };
    this.handlers = new Map<string, JsonHandler<KaspaSession, Params>>([
      ['mining.subscribe', (s, id, p) => subscribe(s, id, p)],
      ['mining.authorize', (s, id, p) => authorize(logins, s, id, p)],
      ['mining.submit', (s, id, p) => this.submits.submit(s, id, p)],
      ['mining.extranonce.subscribe', (s, id) => s.reply(id, true)],
    ]);
    this.stopFollowing = options.source.onTemplate((template) => {
      this.stats.jobsSent += this.broadcast(template);
    });
    // No node (or no word from the core) past the limit: miners go to their backup pools, and
    // new ones are refused until work is back.
    this.stopFollowingDown = options.source.onWorkStopped(() => {
      const sent = this.sendAway('work paused: no KAS work');
      options.logger.warn(
        { coin: KAS, port: options.port, sent },
        'KAS work paused: miners disconnected, new connections refused',
      );
    });
  }

  /** Stops following the template source, then closes the port (stratum/json-server.ts). */
  override async close(): Promise<void> {
    this.stopFollowing();
    this.stopFollowingDown();
    await super.close();
  }

  /** A connection is taken only while a KAS extranonce is free. */
  protected override admits(): boolean {
    if (this.extranonces.free > 0) return true;
    this.options.logger.warn(
      { coin: KAS, port: this.options.port },
      'KAS extranonces all in use: connection refused',
    );
    return false;
  }

  protected open(socket: net.Socket, address: AddressRecord, extraNonce: Buffer): KaspaSession {
    const { vardiff, logger } = this.options;
    return new KaspaSession(socket, address, extraNonce, this.extranonces.allocate(), vardiff, logger);
  }

  protected params(message: Record<string, unknown>): Params {
    return Array.isArray(message.params) ? (message.params as unknown[]) : [];
  }

  /** mining.set_difficulty when it changed, then mining.notify. */
  protected sendWork(session: KaspaSession, template: KaspaTemplate): void {
    session.sendJob(template);
  }

  protected released(session: KaspaSession): void {
    this.extranonces.release(session.extranonce);
    if (session.miner)
      this.options.pool?.workerChanged('disconnected', session.miner, session.login, session.agent);
  }

  protected settled(): Promise<void> {
    return this.submits.settled();
  }
}
