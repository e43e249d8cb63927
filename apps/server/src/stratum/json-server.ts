// One listening port of a JSON-line Stratum dialect that logs in once per connection (the Monero
// and Kaspa dialects): what they share, in one place. Accepting a connection (the ban list's
// per-address cap and bans, no connection while there is no work, the port's share of the
// open-files limit set by its owner), framing with the line cap, corked writes per chunk read,
// the JSON-RPC envelope (a line that is not a JSON object closes the connection), dispatch
// through the dialect's method map with the unknown-method limit, login and idle timeouts, the
// vardiff sweep for silent miners, one ban judge over the port's connections, and closing. A
// dialect (coins/<family>/stratum/server.ts) gives its session, its methods and its hooks.
import type net from 'node:net';
import type { Logger } from 'pino';
import type { Config, StratumPortConfig } from '../config/index.js';
import { BanJudge } from './ban-judge.js';
import { BanList, type AddressRecord } from './bans.js';
import { ExtranonceAllocator } from './extranonce.js';
import { LineFramer, MAX_UNKNOWN_METHODS, readRequest } from './framing.js';
import type { JsonId, JsonSession } from './json-session.js';
import { createStratumListener, listenStratum } from './listener.js';

/** How often timeouts, the vardiff sweep for silent miners and expired bans are looked at. */
export const JSON_SWEEP_MS = 5_000;

/** How long miners sent away (the coin's work stopped) still get the answers they are owed. */
export const SEND_AWAY_GRACE_MS = 1_000;

/** The `stratum` config keys a JSON-line port reads. */
export type JsonStratumSettings = Pick<
  Config['stratum'],
  | 'maxLineBytes'
  | 'maxConnectionsPerIp'
  | 'idleTimeoutSeconds'
  | 'authorizeTimeoutSeconds'
  | 'ban'
  | 'instanceId'
>;

export interface JsonPortOptions<T> {
  /** 0 = any free port. */
  port: number;
  host: string;
  /** Certificate and key files: the port speaks TLS (listener.ts). */
  tls?: StratumPortConfig['tls'];
  stratum: JsonStratumSettings;
  /** The dialect's work: no connection is taken while it has none (miners go to their backup pools). */
  source: { readonly current: T | undefined };
  logger: Logger;
  /** The process's ban list and extranonce space, shared by every port (default: the port's own). */
  bans?: BanList;
  allocator?: ExtranonceAllocator;
}

/** A method of the dialect: answers `id` on `session` with `params` (the dialect's shape of them). */
export type JsonHandler<S, P> = (session: S, id: JsonId, params: P) => void;

export abstract class JsonStratumServer<S extends JsonSession<unknown, unknown>, T, P> {
  readonly server: net.Server;
  readonly tls: boolean;
  readonly bans: BanList;
  protected readonly sessions = new Set<S>();
  protected readonly allocator: ExtranonceAllocator;
  /** Counts every judged submit of this port for bans (one decision per connection). */
  protected readonly judge: BanJudge<S>;
  /** The dialect's methods (a Map: `__proto__` or `toString` are unknown methods like any other). */
  protected abstract readonly handlers: ReadonlyMap<string, JsonHandler<S, P>>;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly port: JsonPortOptions<T>,
    /** The coin, in the port's log lines. */
    private readonly coin: string,
  ) {
    this.bans = port.bans ?? new BanList(port.stratum.ban);
    this.allocator = port.allocator ?? new ExtranonceAllocator(undefined, port.stratum.instanceId);
    this.judge = new BanJudge(this.bans, this.sessions, port.logger, (session) => [session.login]);
    this.tls = port.tls !== undefined;
    this.server = createStratumListener(port.tls, (socket) => this.accept(socket));
    this.server.on('error', (error) => port.logger.error({ err: error }, `${coin} stratum port error`));
    this.sweeper = setInterval(() => this.sweep(), JSON_SWEEP_MS);
    this.sweeper.unref();
  }

  /** Open connections (logged in or not). */
  get connections(): number {
    return this.sessions.size;
  }

  listen(): Promise<number> {
    return listenStratum(this.server, this.port.host, this.port.port);
  }

  /** Stops listening, closes every connection and waits for blocks being submitted. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.close('server stopping');
    await closed;
    await this.settled();
  }

  /** New work to every logged-in miner at once (ahead of replies still owed); answers how many got it. */
  protected broadcast(work: T): number {
    let sent = 0;
    for (const session of this.sessions) {
      if (session.miner === undefined) continue;
      this.sendWork(session, work);
      sent++;
    }
    return sent;
  }

  /**
   * The coin's work stopped (no node answers past its silence limit): every miner is disconnected
   * so its firmware fails over to a backup pool; answers owed to shares already being judged
   * leave first (SEND_AWAY_GRACE_MS). New connections are refused while the source has no work.
   * Answers how many connections were sent away.
   */
  protected sendAway(reason: string): number {
    const leaving = [...this.sessions];
    setTimeout(() => {
      for (const session of leaving) session.close(reason);
    }, SEND_AWAY_GRACE_MS).unref();
    return leaving.length;
  }

  /** Whether a new connection can be taken now (beyond work and the address caps): a dialect's own limit. */
  protected admits(): boolean {
    return true;
  }

  /** A new connection's session (its extra nonce comes from the allocator). */
  protected abstract open(socket: net.Socket, address: AddressRecord, extraNonce: Buffer): S;
  /** The params of a request in the dialect's shape (an object for Monero, an array for Kaspa). */
  protected abstract params(message: Record<string, unknown>): P;
  /** Work for a logged-in miner at its difficulty now: new work came, or vardiff lowered it for a silent miner. */
  protected abstract sendWork(session: S, work: T): void;
  /** A connection closed (before its session is forgotten): the dialect's own leftovers. */
  protected abstract released(session: S): void;
  /** Resolves when the dialect's work in flight (blocks being submitted) is done. */
  protected abstract settled(): Promise<void>;

  private accept(socket: net.Socket): void {
    const { stratum, source } = this.port;
    socket.on('error', () => undefined);
    const address = this.bans.admit(socket.remoteAddress ?? 'unknown', stratum.maxConnectionsPerIp);
    if (!address || !source.current || !this.admits()) {
      if (address) this.bans.release(address);
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    const session = this.open(socket, address, this.allocator.allocate());
    this.sessions.add(session);
    const framer = new LineFramer(stratum.maxLineBytes, (line) => this.onLine(session, line));
    socket.on('data', (text: string) => {
      session.lastReceivedMs = Date.now();
      // Replies to every request in this chunk leave in one write.
      socket.cork();
      const result = framer.push(text);
      socket.uncork();
      if (result === 'overflow') session.close('line over the cap');
    });
    socket.on('close', () => {
      session.closed = true;
      this.released(session);
      this.sessions.delete(session);
      this.allocator.release(session.extraNonce);
      this.bans.release(address);
    });
  }

  /** Login and idle timeouts, lower difficulty for silent miners, expired bans. */
  private sweep(): void {
    const now = Date.now();
    const { idleTimeoutSeconds, authorizeTimeoutSeconds } = this.port.stratum;
    const work = this.port.source.current;
    for (const session of this.sessions) {
      if (session.miner === undefined) {
        if (now - session.connectedMs > authorizeTimeoutSeconds * 1000)
          session.close('not logged in in time');
        continue;
      }
      if (now - session.lastReceivedMs > idleTimeoutSeconds * 1000) {
        session.close('idle');
        continue;
      }
      if (session.vardiff.onIdle(now) !== undefined && work) this.sendWork(session, work);
    }
    this.bans.sweep(now);
  }

  /** Handles one line; false when the connection was closed (stop reading). */
  private onLine(session: S, line: string): boolean {
    if (session.closed) return false;
    const request = readRequest(line);
    if (typeof request === 'string') {
      session.close(request);
      return false;
    }
    if (!request) return true;
    const { id, method, message } = request;
    const handler = this.handlers.get(method);
    try {
      if (handler) handler(session, id, this.params(message));
      else {
        session.fail(id, `Unknown method ${method.slice(0, 64)}`);
        if (++session.unknownMethods > MAX_UNKNOWN_METHODS) session.close('too many unknown methods');
      }
    } catch (error) {
      this.port.logger.error({ err: error, session: session.id }, `${this.coin} stratum handler failed`);
      session.fail(id, 'Internal error');
    }
    return !session.closed;
  }
}
