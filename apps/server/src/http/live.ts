import type { LiveMessage, PoolCoin } from '@manjam/contract';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Config } from '../config/index.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import type { Services } from './services.js';

/** Close code for a missing, expired or revoked token. */
export const LIVE_UNAUTHORIZED = 4401;
/** Close code for a socket past a cap of open live sockets (its account's, session's or address's). */
export const LIVE_TOO_MANY = 4429;
const HASHRATE_DEBOUNCE_MS = 2_000;

/** Open sockets per key; `take` is false (and counts nothing) at the cap. */
class Counter<K> {
  private readonly open = new Map<K, number>();
  constructor(private readonly cap: number) {}
  take(key: K): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.cap) return false;
    this.open.set(key, count + 1);
    return true;
  }
  give(key: K): void {
    const left = (this.open.get(key) ?? 1) - 1;
    if (left > 0) this.open.set(key, left);
    else this.open.delete(key);
  }
}

/**
 * GET /api/live?token=… (WebSocket): pushes the signed-in user's own changes — shares flushed,
 * hashrate, workers up/down, blocks they found, payouts sent to them. Open sockets are capped
 * per peer address (checked before the token is read), per session and per account
 * (http.live.*): a socket past a cap is closed with 4429 and holds nothing.
 */
export function registerLive(
  app: FastifyInstance,
  services: Services,
  events: PoolEvents,
  logger: Logger,
  caps: Config['http']['live'],
): void {
  const byAddress = new Counter<string>(caps.maxPerAddress);
  const byUser = new Counter<number>(caps.maxPerUser);
  const bySession = new Counter<number>(caps.maxPerSession);
  const tooMany = (socket: WebSocket) => socket.close(LIVE_TOO_MANY, 'too many live connections');
  app.get('/api/live', { websocket: true }, (socket: WebSocket, request) => {
    const token = (request.query as { token?: unknown }).token;
    const address = request.ip;
    if (!byAddress.take(address)) return tooMany(socket);
    const gives: (() => void)[] = [() => byAddress.give(address)];
    socket.on('close', () => gives.splice(0).forEach((give) => give()));
    void (async () => {
      // A session Auto Logout ends (session-idle) is refused like any other.
      const signedIn =
        typeof token === 'string'
          ? await services.auth.authenticate(token).catch(() => undefined)
          : undefined;
      if (!signedIn) {
        socket.close(LIVE_UNAUTHORIZED, 'unauthorized');
        return;
      }
      if (socket.readyState !== socket.OPEN) return;
      const userId = signedIn.user.id;
      const { sessionId } = signedIn;
      if (!byUser.take(userId)) return tooMany(socket);
      gives.push(() => byUser.give(userId));
      if (!bySession.take(sessionId)) return tooMany(socket);
      gives.push(() => bySession.give(sessionId));
      const at = () => new Date(services.now()).toISOString();
      const send = (message: LiveMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      let hashrateTimer: NodeJS.Timeout | undefined;
      const pushHashrate = (coin: PoolCoin) => {
        if (hashrateTimer) return;
        hashrateTimer = setTimeout(() => {
          hashrateTimer = undefined;
          services.workers
            .snapshot(userId)
            .then((snap) =>
              send({
                type: 'hashrate',
                coin,
                hashrate: snap.hashrates.find((h) => h.coin === coin)?.realtime ?? 0,
                at: at(),
              }),
            )
            .catch((error: unknown) => logger.warn({ err: error }, 'live hashrate failed'));
        }, HASHRATE_DEBOUNCE_MS);
      };
      const offs = [
        events.on('shares.flushed', (e) => {
          if (e.userId !== userId) return;
          send({ type: 'share', coin: e.coin, count: e.count, workerIds: e.workerIds, at: at() });
          pushHashrate(e.coin);
        }),
        events.on('worker.connected', (e) => {
          if (e.userId === userId)
            send({
              type: 'worker',
              coin: e.coin,
              workerId: e.workerId,
              name: e.login,
              status: 'online',
              at: at(),
            });
        }),
        events.on('worker.disconnected', (e) => {
          if (e.userId === userId)
            send({
              type: 'worker',
              coin: e.coin,
              workerId: e.workerId,
              name: e.login,
              status: 'offline',
              at: at(),
            });
        }),
        events.on('block.found', (e) => {
          if (e.finderUserId === userId)
            send({ type: 'block', coin: e.coin, height: e.height, hash: e.hash, status: e.status, at: at() });
        }),
        events.on('payout.sent', (e) => {
          if (e.userId === userId)
            send({ type: 'payout', coin: e.coin, amount: e.amount.toString(), txId: e.txid, at: at() });
        }),
      ];
      socket.on('close', () => {
        offs.forEach((off) => off());
        if (hashrateTimer) clearTimeout(hashrateTimer);
      });
      // Client messages are not part of the protocol; anything sent is ignored.
      send({ type: 'hello', userId, at: at() });
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'live socket failed');
      socket.close(1011, 'error');
    });
  });
}
