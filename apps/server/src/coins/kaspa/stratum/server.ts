/**
 * The Kaspa Stratum dialect on one port (the seed's 7777, kHeavyHash), as Kaspa ASICs and GPU
 * miners speak it: `mining.subscribe` and `mining.authorize` (login.ts), `mining.submit`
 * (submit.ts), `mining.extranonce.subscribe`; the pool sends `mining.set_extranonce`,
 * `mining.set_difficulty` and `mining.notify` in the form the agent takes (session.ts). Framing,
 * bans, TLS, reply order and vardiff are the shared kit's (stratum/); a new template reaches every
 * authorized miner as a new job at once (the source already keeps that to a few a second).
 */
import type net from 'node:net';
import { STRATUM_ERROR, stratumError } from '@manjam/protocol';
import { BanList } from '../../../stratum/bans.js';
import { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import { LineFramer, MAX_UNKNOWN_METHODS } from '../../../stratum/framing.js';
import { createStratumListener } from '../../../stratum/listener.js';
import { authorize, subscribe, type LoginContext } from './login.js';
import { KaspaSession, type Id } from './session.js';
import { KaspaSubmits } from './submit.js';
import type { KaspaStats, KaspaStratumOptions } from './types.js';

const SWEEP_MS = 5_000;

type Handler = (session: KaspaSession, id: Id, params: unknown[]) => void;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class KaspaStratumServer {
  readonly server: net.Server;
  readonly tls: boolean;
  readonly bans: BanList;
  readonly stats: KaspaStats = {
    accepted: 0,
    blocks: 0,
    jobsSent: 0,
    rejected: { stale: 0, duplicate: 0, low_difficulty: 0, invalid: 0, unauthorized: 0, busy: 0 },
  };
  private readonly sessions = new Set<KaspaSession>();
  private readonly allocator: ExtranonceAllocator;
  private readonly submits: KaspaSubmits;
  private readonly logins: LoginContext;
  private readonly sweeper: NodeJS.Timeout;
  private readonly stopFollowing: () => void;
  private readonly handlers: ReadonlyMap<string, Handler>;

  get connections(): number {
    return this.sessions.size;
  }

  constructor(private readonly options: KaspaStratumOptions) {
    this.bans = options.bans ?? new BanList(options.stratum.ban);
    this.allocator = options.allocator ?? new ExtranonceAllocator(undefined, options.stratum.instanceId);
    this.submits = new KaspaSubmits(options, this.stats, this.bans, this.sessions);
    this.logins = { ...options, bans: this.bans };
    this.handlers = new Map<string, Handler>([
      ['mining.subscribe', (s, id, p) => subscribe(s, id, p)],
      ['mining.authorize', (s, id, p) => authorize(this.logins, s, id, p)],
      ['mining.submit', (s, id, p) => this.submits.submit(s, id, p)],
      ['mining.extranonce.subscribe', (s, id) => s.reply(id, true)],
    ]);
    this.tls = options.tls !== undefined;
    this.server = createStratumListener(options.tls, (socket) => this.accept(socket));
    this.server.on('error', (error) => options.logger.error({ err: error }, 'KAS stratum port error'));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    this.stopFollowing = options.source.onTemplate((template) => {
      for (const session of this.sessions) {
        if (!session.miner) continue;
        session.sendJob(template);
        this.stats.jobsSent++;
      }
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host: this.options.host, port: this.options.port, backlog: 4096 }, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : this.options.port);
      });
    });
  }

  /** Stops listening, closes every connection and waits for blocks being submitted. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.stopFollowing();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.close('server stopping');
    await closed;
    await this.submits.settled();
  }

  private accept(socket: net.Socket): void {
    const { stratum, logger } = this.options;
    socket.on('error', () => undefined);
    const address = this.bans.admit(socket.remoteAddress ?? 'unknown', stratum.maxConnectionsPerIp);
    // No template (the node is silent): miners go to their backup pools.
    if (!address || !this.options.source.current) {
      if (address) this.bans.release(address);
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    const session = new KaspaSession(
      socket,
      address,
      this.allocator.allocate(),
      this.options.vardiff,
      logger,
    );
    this.sessions.add(session);
    const framer = new LineFramer(stratum.maxLineBytes, (line) => this.onLine(session, line));
    socket.on('data', (text: string) => {
      session.lastReceivedMs = Date.now();
      socket.cork();
      const result = framer.push(text);
      socket.uncork();
      if (result === 'overflow') session.close('line over the cap');
    });
    socket.on('close', () => {
      session.closed = true;
      if (session.miner) this.options.pool?.workerChanged('disconnected', session.miner, session.login);
      this.sessions.delete(session);
      this.allocator.release(session.extraNonce);
      this.bans.release(address);
    });
  }

  /** Authorize and idle timeouts, lower difficulty for silent miners, expired bans. */
  private sweep(): void {
    const now = Date.now();
    const { idleTimeoutSeconds, authorizeTimeoutSeconds } = this.options.stratum;
    const template = this.options.source.current;
    for (const session of this.sessions) {
      if (!session.miner) {
        if (now - session.connectedMs > authorizeTimeoutSeconds * 1000)
          session.close('not authorized in time');
        continue;
      }
      if (now - session.lastReceivedMs > idleTimeoutSeconds * 1000) {
        session.close('idle');
        continue;
      }
      if (session.vardiff.onIdle(now) !== undefined && template) session.sendJob(template);
    }
    this.bans.sweep(now);
  }

  private onLine(session: KaspaSession, line: string): boolean {
    if (session.closed) return false;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      session.close('not JSON');
      return false;
    }
    if (!isObject(message)) {
      session.close('not a JSON-RPC object');
      return false;
    }
    const id: Id = typeof message.id === 'number' || typeof message.id === 'string' ? message.id : null;
    const params = Array.isArray(message.params) ? (message.params as unknown[]) : [];
    const handler = typeof message.method === 'string' ? this.handlers.get(message.method) : undefined;
    try {
      if (handler) handler(session, id, params);
      else if (typeof message.method === 'string') {
        session.error(id, stratumError(STRATUM_ERROR.OTHER, `Unknown method ${message.method.slice(0, 64)}`));
        if (++session.unknownMethods > MAX_UNKNOWN_METHODS) session.close('too many unknown methods');
      }
    } catch (error) {
      this.options.logger.error({ err: error, session: session.id }, 'KAS stratum handler failed');
      session.error(id, stratumError(STRATUM_ERROR.OTHER, 'Internal error'));
    }
    return !session.closed;
  }
}
