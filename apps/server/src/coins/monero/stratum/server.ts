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
 * in request order (ReplyOrder), job notifications at once. The connection skeleton (accept and
 * caps, framing, the JSON-RPC envelope, timeouts, the vardiff sweep, the ban judge) is the kit's
 * JSON-line server (stratum/json-server.ts, shared with the Kaspa dialect); the fair
 * proof-of-work queue (fair-work.ts), the rejection vocabulary (rejections.ts) and the share book
 * are the kit's too (in the pool: the same BanList and ExtranonceAllocator objects as every port).
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
import type { AddressRecord } from '../../../stratum/bans.js';
import { JsonStratumServer, type JsonHandler } from '../../../stratum/json-server.js';
import { ShareBook, shareStats } from '../../../stratum/share-book.js';
import { login } from './login.js';
import { followTemplateSeeds } from './randomx-seeds.js';
import { MoneroSession, jobParams, type Id } from './session.js';
import { MoneroSubmits } from './submit.js';
import type { MoneroTemplate } from './template-source.js';
import { XMR, type MoneroStats, type MoneroStratumOptions } from './types.js';

export {
  XMR,
  type MoneroAcceptedShare,
  type MoneroFoundBlock,
  type MoneroMinerRef,
  type MoneroPoolHooks,
  type MoneroShareSink,
  type MoneroStats,
  type MoneroStratumOptions,
  type MoneroStratumSettings,
} from './types.js';

type Params = Record<string, unknown>;

const isObject = (value: unknown): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class MoneroStratumServer extends JsonStratumServer<MoneroSession, MoneroTemplate, Params> {
  readonly stats: MoneroStats = shareStats();
  private readonly submits: MoneroSubmits;
  protected readonly handlers: ReadonlyMap<string, JsonHandler<MoneroSession, Params>>;

  /** The fair proof-of-work queue's figures: shares waiting, being hashed, refused unchecked. */
  get powQueue(): MoneroSubmits['queue'] {
    return this.submits.queue;
  }

  constructor(private readonly options: MoneroStratumOptions) {
    super(options, XMR);
    this.submits = new MoneroSubmits(options, new ShareBook(this.stats, options.sink, this.judge));
    const logins = { ...options, bans: this.bans };
    this.handlers = new Map<string, JsonHandler<MoneroSession, Params>>([
      ['login', (s, id, p) => login(logins, s, id, p)],
      ['getjob', (s, id, p) => this.getjob(s, id, p)],
      ['submit', (s, id, p) => this.submits.submit(s, id, p)],
      ['keepalived', (s, id) => s.reply(id, { status: 'KEEPALIVED' })],
    ]);
    options.source.onTemplate((template) => {
      // While a miner is logged in, the next epoch's cache is built before its first share.
      followTemplateSeeds(options.randomx, template, options.logger);
      this.broadcast(template);
    });
  }

  protected open(socket: net.Socket, address: AddressRecord, extraNonce: Buffer): MoneroSession {
    return new MoneroSession(socket, address, extraNonce, this.options.vardiff, this.options.logger);
  }

  protected params(message: Params): Params {
    return isObject(message.params) ? message.params : {};
  }

  /** A job of its own on `template` (Monero has no set_difficulty: a new difficulty comes with a new job). */
  protected sendWork(session: MoneroSession, template: MoneroTemplate): void {
    session.notifyJob(session.makeJob(template));
  }

  protected released(session: MoneroSession): void {
    session.releaseRandomX?.();
    if (!session.miner || this.options.pool?.owners?.showDisconnected(session.miner) === false) return;
    const identity = session.miner.identity;
    this.options.pool?.events.emit('worker.disconnected', {
      coin: XMR,
      workerId: null,
      userId: identity.kind === 'user' ? identity.userId : null,
      login: session.login,
    });
  }

  protected settled(): Promise<void> {
    return this.submits.settled();
  }

  private getjob(session: MoneroSession, id: Id, params: Params): void {
    if (!session.miner || params.id !== session.id) return session.error(id, 'Unauthenticated');
    session.reply(id, jobParams(session.makeJob(this.options.source.current as MoneroTemplate)));
  }
}
