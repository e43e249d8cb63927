/**
 * The Monero Stratum dialect (XMRig and others) on one port: `login` (login.ts), `getjob`,
 * `submit` (submit.ts), `keepalived`, and `job` notifications. Each job carries its own hashing
 * blob: the template's reserved bytes hold the connection's 4-byte extra nonce
 * (ExtranonceAllocator) and the job's number (session.ts). A submit is judged in this order:
 * logged in and the session id matches; well-formed (nonce 8 hex, result 64 hex); job known
 * ("Invalid job id") and not stale ("Stale job": its tip was replaced; a same-tip refresh for new
 * transactions leaves older jobs of the height valid); nonce not seen on the job ("Duplicate
 * share"); the claimed result meets the job's difficulty ("Low difficulty share", answered
 * without hashing); the hash recomputed with RandomX equals the claim ("Invalid result": the
 * miner's `result` is never trusted); then accepted, and a hash under the network difficulty is a
 * block (found-block.ts: built, `submit_block`, confirmed against the node's tip). Replies leave
 * in request order (ReplyOrder), job notifications at once. Framing, bans (ban-judge.ts), the fair proof-of-work queue (fair-work.ts), vardiff
 * and the share sink are the V1 port's pieces (in the pool: the same BanList and
 * ExtranonceAllocator objects).
 *
 * NONCE RANGES (nicehash): the whole 32-bit nonce is the miner's. Job blobs carry nonce 0 and the
 * login reply does not list `nicehash`, so XMRig uses all 2^32 nonces, and xmrig-proxy in nicehash
 * mode (or NiceHash) may split one connection among up to 256 miners by the nonce's top byte
 * (blob byte 42): every top byte is accepted, a duplicate is only the same nonce on the same job,
 * and vardiff follows the connection's combined rate. Connections are kept apart by the extra
 * nonce, so the pool offers no ranges of its own (docs/MONERO.md).
 *
 * In the pool (stratum/monero/start.ts) it takes the process's ShareWriter as its sink, the
 * pool's LoginResolver for `username[.worker]` logins (wallet addresses are checked here), the
 * XMR hashrate tracker and the pool's events (worker.connected/disconnected).
 *
 * RANDOMX MEMORY (randomx-seeds.ts): a logged-in miner holds the RandomX pool and its login starts
 * building the seeds; while no miner is logged in no seed is built, and the pool lets its caches
 * go after its idle time (light mode). Its figures are on /metrics (MoneroPort.randomx, StratumService.randomx).
 *
 * TLS when the port's config has a certificate (stratum/listener.ts, shared with the V1 ports).
 * Left: XMR over the regional job feed.
 */
import type net from 'node:net';
import { BanList } from '../../../stratum/bans.js';
import { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import { LineFramer, MAX_UNKNOWN_METHODS } from '../../../stratum/framing.js';
import { createStratumListener } from '../../../stratum/listener.js';
import { login, type LoginContext } from './login.js';
import { followTemplateSeeds } from './randomx-seeds.js';
import { MoneroSession, jobParams, type Id } from './session.js';
import { MoneroSubmits } from './submit.js';
import type { MoneroTemplate } from './template-source.js';
import { XMR, type MoneroStats, type MoneroStratumOptions } from './types.js';

export {
  MONERO_REJECTIONS,
  XMR,
  type MoneroAcceptedShare,
  type MoneroFoundBlock,
  type MoneroMinerRef,
  type MoneroPoolHooks,
  type MoneroRejection,
  type MoneroShareSink,
  type MoneroStats,
  type MoneroStratumOptions,
  type MoneroStratumSettings,
} from './types.js';

/** How often timeouts, the vardiff sweep for silent miners and expired bans are looked at (as the V1 ports). */
const SWEEP_MS = 5_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class MoneroStratumServer {
  readonly server: net.Server;
  readonly tls: boolean;
  readonly bans: BanList;
  readonly stats: MoneroStats = {
    accepted: 0,
    blocks: 0,
    rejected: { stale: 0, duplicate: 0, low_difficulty: 0, invalid: 0, unauthorized: 0, busy: 0 },
  };
  private readonly sessions = new Set<MoneroSession>();
  private readonly allocator: ExtranonceAllocator;
  private readonly submits: MoneroSubmits;
  private readonly logins: LoginContext;
  private readonly sweeper: NodeJS.Timeout;

  /** The fair proof-of-work queue's figures: shares waiting, being hashed, refused unchecked. */
  get powQueue(): MoneroSubmits['queue'] {
    return this.submits.queue;
  }

  /** Open connections (logged in or not). */
  get connections(): number {
    return this.sessions.size;
  }

  constructor(private readonly options: MoneroStratumOptions) {
    this.bans = options.bans ?? new BanList(options.stratum.ban);
    this.allocator = options.allocator ?? new ExtranonceAllocator(undefined, options.stratum.instanceId);
    this.submits = new MoneroSubmits(options, this.stats, this.bans, this.sessions);
    this.logins = { ...options, bans: this.bans };
    this.tls = options.tls !== undefined;
    this.server = createStratumListener(options.tls, (socket) => this.accept(socket));
    this.server.on('error', (error) => options.logger.error({ err: error }, 'XMR stratum port error'));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    options.source.onTemplate((template) => {
      // While a miner is logged in, the next epoch's cache is built before its first share.
      followTemplateSeeds(options.randomx, template, options.logger);
      for (const session of this.sessions) if (session.miner) session.notifyJob(session.makeJob(template));
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
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.close('server stopping');
    await closed;
    await this.submits.settled();
  }

  private accept(socket: net.Socket): void {
    const { stratum, logger } = this.options;
    const ip = socket.remoteAddress ?? 'unknown';
    socket.on('error', () => undefined);
    const address = this.bans.admit(ip, stratum.maxConnectionsPerIp);
    if (!address || !this.options.source.current) {
      if (address) this.bans.release(address);
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    const session = new MoneroSession(
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
      session.releaseRandomX?.();
      if (session.miner) {
        const identity = session.miner.identity;
        this.options.pool?.events.emit('worker.disconnected', {
          coin: XMR,
          workerId: null,
          userId: identity.kind === 'user' ? identity.userId : null,
          login: session.login,
        });
      }
      this.sessions.delete(session);
      this.allocator.release(session.extraNonce);
      this.bans.release(address);
    });
  }

  /** Login and idle timeouts, lower difficulty for silent miners, expired bans. */
  private sweep(): void {
    const now = Date.now();
    const { idleTimeoutSeconds, authorizeTimeoutSeconds } = this.options.stratum;
    const template = this.options.source.current;
    for (const session of this.sessions) {
      if (!session.miner) {
        if (now - session.connectedMs > authorizeTimeoutSeconds * 1000)
          session.close('not logged in in time');
        continue;
      }
      if (now - session.lastReceivedMs > idleTimeoutSeconds * 1000) {
        session.close('idle');
        continue;
      }
      // Monero has no set_difficulty: a new difficulty comes with a new job.
      if (session.vardiff.onIdle(now) !== undefined && template) session.notifyJob(session.makeJob(template));
    }
    this.bans.sweep(now);
  }

  private onLine(session: MoneroSession, line: string): boolean {
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
    const params = isObject(message.params) ? message.params : {};
    try {
      switch (message.method) {
        case 'login':
          login(this.logins, session, id, params);
          break;
        case 'getjob':
          this.getjob(session, id, params);
          break;
        case 'submit':
          this.submits.submit(session, id, params);
          break;
        case 'keepalived':
          session.reply(id, { status: 'KEEPALIVED' });
          break;
        default:
          // A reply to nothing we asked, or a method of another dialect.
          if (typeof message.method === 'string') {
            session.error(id, `Unknown method ${message.method.slice(0, 64)}`);
            if (++session.unknownMethods > MAX_UNKNOWN_METHODS) session.close('too many unknown methods');
          }
      }
    } catch (error) {
      this.options.logger.error({ err: error, session: session.id }, 'XMR stratum handler failed');
      session.error(id, 'Internal error');
    }
    return !session.closed;
  }

  private getjob(session: MoneroSession, id: Id, params: Record<string, unknown>): void {
    if (!session.miner || params.id !== session.id) return session.error(id, 'Unauthenticated');
    session.reply(id, jobParams(session.makeJob(this.options.source.current as MoneroTemplate)));
  }
}
