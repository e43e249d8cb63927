// A Stratum port's listening socket: plain TCP, or TLS when the port's config has a certificate
// and key (`stratum.ports[].tls`). Shared by every dialect's ports; a TLS handshake that fails
// only closes that connection. Each listener keeps its port's seats (PortSeats): the port's cap,
// every address's fair share of it, and room made for a new miner at the cap.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Algorithm } from '@manjam/protocol';
import type { StratumPortConfig } from '../config/index.js';
import { hashrateFromDifficulty, Ring, RollingDifficulty } from '../shares/hashrate.js';

/** The seats of one port: how many connections in all and from one address, when one idles. */
export interface SeatLimits {
  /** Open connections of the port at most. */
  maxConnections: number;
  /** Open connections of one address on the port at most. */
  maxPerAddress: number;
  /** A connection that has had no valid share for this long (and is this old) may be evicted. */
  idleMs: number;
}

/** Fewest seats of a port the default share of one address allows. */
const MIN_DEFAULT_PER_ADDRESS = 32;

/** A port's seats from `stratum` settings and the port's cap (kit.maxConnectionsPerPort). */
export function seatLimits(
  stratum: { maxConnectionsPerIp: number; seats: { perAddress?: number | undefined; idleSeconds: number } },
  maxConnections: number,
): SeatLimits {
  const share = Math.max(MIN_DEFAULT_PER_ADDRESS, Math.floor(maxConnections / 8));
  return {
    maxConnections,
    maxPerAddress: stratum.seats.perAddress ?? Math.min(share, stratum.maxConnectionsPerIp),
    idleMs: stratum.seats.idleSeconds * 1000,
  };
}

const UNLIMITED: SeatLimits = {
  maxConnections: Number.POSITIVE_INFINITY,
  maxPerAddress: Number.POSITIVE_INFINITY,
  idleMs: Number.POSITIVE_INFINITY,
};

/** One open connection on a port. */
export class Seat {
  /** When it last showed it mines: its last valid share, else when it connected. */
  usefulMs: number;

  constructor(
    readonly ip: string,
    readonly socket: net.Socket,
    nowMs: number,
    /** The port it sits on. */
    readonly port: PortSeats,
  ) {
    this.usefulMs = nowMs;
  }
}

/** The seat of each open socket (sessions mark a valid share on their socket: markUseful). */
const SEAT_OF = new WeakMap<object, Seat>();

/** A valid share on this connection: it mines, and is never evicted while it keeps doing so. */
export function markUseful(socket: object, nowMs: number = Date.now()): void {
  const seat = SEAT_OF.get(socket);
  if (seat) seat.usefulMs = nowMs;
}

/** An accepted share on this connection, counted in its port's figures (PortSeats.work). */
export function countPortShare(socket: object, difficulty: number, atMs: number): void {
  SEAT_OF.get(socket)?.port.work.add(difficulty, atMs);
}

/** Accepted shares per second over the last minute are counted in 6 buckets of 10 s. */
const SHARE_BUCKETS = 6;
const SHARE_BUCKET_MS = 10_000;

/**
 * What one port's miners sent (its accepted shares), kept where its listener runs: shares per
 * second over the last minute, and their work over the hashrate windows (shares/hashrate.ts).
 */
export class PortWork {
  private readonly shares = new Ring(SHARE_BUCKETS, SHARE_BUCKET_MS);
  /** Only the 10-minute window: the port's figure (a share's cost on the hot path stays one ring). */
  private readonly difficulty = new RollingDifficulty(['10m']);

  constructor(private readonly openedMs: number = Date.now()) {}

  add(difficulty: number, atMs: number): void {
    this.shares.add(1, atMs);
    this.difficulty.add(difficulty, 0, atMs);
  }

  /** Over the last minute, or the time since the port opened when that is shorter (at least 1 s). */
  sharesPerSecond(nowMs: number): number {
    const spanMs = Math.max(1_000, Math.min(this.shares.spanMs(nowMs), nowMs - this.openedMs));
    return this.shares.sum(nowMs) / (spanMs / 1000);
  }

  /** H/s over the last 10 minutes, or over the time its shares have come when that is shorter. */
  hashrate(algorithm: Algorithm, nowMs: number): number {
    const sum = this.difficulty.sum('10m', nowMs);
    return sum > 0 ? hashrateFromDifficulty(sum, this.difficulty.seconds('10m', nowMs), algorithm) : 0;
  }
}

/**
 * The seats of one port. A new connection is refused when its address already holds
 * `maxPerAddress` of them; at `maxConnections`, the connection idle longest (no valid share for
 * `idleMs`, oldest idle first) is closed to make room for it, and it is refused only when every
 * seat is held by a connection that sent a valid share within `idleMs` or connected since.
 * Counted in `counts` for /metrics.
 */
export class PortSeats {
  limits: SeatLimits = UNLIMITED;
  private readonly open = new Set<Seat>();
  private readonly perAddress = new Map<string, number>();
  readonly counts = { refusedAddress: 0, refusedFull: 0, evicted: 0 };
  /** Its connections' accepted shares (countPortShare). */
  readonly work = new PortWork();

  get size(): number {
    return this.open.size;
  }

  /** Seats `socket`, evicting an idle connection at the cap; undefined when it is refused. */
  take(socket: net.Socket, nowMs: number = Date.now()): Seat | undefined {
    const ip = socket.remoteAddress ?? 'unknown';
    const held = this.perAddress.get(ip) ?? 0;
    if (held >= this.limits.maxPerAddress) {
      this.counts.refusedAddress++;
      return undefined;
    }
    if (this.open.size >= this.limits.maxConnections && !this.evictIdle(nowMs)) {
      this.counts.refusedFull++;
      return undefined;
    }
    const seat = new Seat(ip, socket, nowMs, this);
    this.open.add(seat);
    this.perAddress.set(ip, held + 1);
    SEAT_OF.set(socket, seat);
    socket.once('close', () => this.leave(seat));
    return seat;
  }

  /** Closes the connection idle longest past `idleMs`; false when none is. */
  private evictIdle(nowMs: number): boolean {
    let idlest: Seat | undefined;
    // One pass over the port's seats, only when the port is full (a share refreshes any seat).
    for (const seat of this.open)
      if (nowMs - seat.usefulMs >= this.limits.idleMs && (!idlest || seat.usefulMs < idlest.usefulMs))
        idlest = seat;
    if (!idlest) return false;
    this.leave(idlest);
    this.counts.evicted++;
    idlest.socket.destroy();
    return true;
  }

  private leave(seat: Seat): void {
    if (!this.open.delete(seat)) return;
    const left = (this.perAddress.get(seat.ip) ?? 1) - 1;
    if (left > 0) this.perAddress.set(seat.ip, left);
    else this.perAddress.delete(seat.ip);
  }
}

/** The seats of each listener made here (portSeats). */
const SEATS_OF = new WeakMap<net.Server, PortSeats>();

/** Connections past the seats that may be mid-handshake (TLS) before the port's listener closes them unseen. */
const HANDSHAKE_HEADROOM = 64;

/** A port's figures where its listener runs (coins/family.ts ServedPort): connections open now, accepted shares/s and hashrate. */
export interface ListenerFigures {
  connections: number;
  sharesPerSecond: number;
  hashrate: number;
}

/** The figures of a listener made by createStratumListener now (zeros for any other server). */
export function listenerFigures(
  server: net.Server,
  algorithm: Algorithm,
  nowMs: number = Date.now(),
): ListenerFigures {
  const seats = SEATS_OF.get(server);
  if (!seats) return { connections: 0, sharesPerSecond: 0, hashrate: 0 };
  return {
    connections: seats.size,
    sharesPerSecond: seats.work.sharesPerSecond(nowMs),
    hashrate: seats.work.hashrate(algorithm, nowMs),
  };
}

/**
 * Sets the seats of a listener made by createStratumListener (each family's ports.ts). The
 * listener itself closes connections only well past the cap (TLS handshakes in flight), so
 * that the seats can make room for a new miner at the cap.
 */
export function seatPort(server: net.Server, limits: SeatLimits): PortSeats {
  const seats = SEATS_OF.get(server);
  if (!seats) throw new Error('not a Stratum listener');
  seats.limits = limits;
  server.maxConnections = limits.maxConnections + HANDSHAKE_HEADROOM;
  return seats;
}

/**
 * A port's listener: each connection takes a seat first (refused ones are closed unanswered,
 * before the dialect sees them), then goes to `onConnection`.
 */
export function createStratumListener(
  tlsConfig: StratumPortConfig['tls'],
  onConnection: (socket: net.Socket) => void,
): net.Server {
  const seats = new PortSeats();
  const seated = (socket: net.Socket): void => {
    if (seats.take(socket)) {
      onConnection(socket);
      return;
    }
    socket.on('error', () => undefined);
    socket.destroy();
  };
  let server: net.Server;
  if (!tlsConfig) server = net.createServer(seated);
  else {
    server = tls.createServer(
      { cert: readFileSync(tlsConfig.cert), key: readFileSync(tlsConfig.key) },
      seated,
    );
    server.on('tlsClientError', () => undefined);
  }
  SEATS_OF.set(server, seats);
  return server;
}

/** Listens on `host:port` (0: any free port) with a deep accept backlog; resolves with the port. */
export function listenStratum(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
