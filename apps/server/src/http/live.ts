import type { LiveMessage, PoolCoin } from '@manjam/contract';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import type { Services } from './services.js';

/** Close code for a missing, expired or revoked token. */
export const LIVE_UNAUTHORIZED = 4401;
const HASHRATE_DEBOUNCE_MS = 2_000;

/**
 * GET /api/live?token=… (WebSocket): pushes the signed-in user's own changes — shares flushed,
 * hashrate, workers up/down, blocks they found, payouts sent to them.
 */
export function registerLive(
  app: FastifyInstance,
  services: Services,
  events: PoolEvents,
  logger: Logger,
): void {
  app.get('/api/live', { websocket: true }, (socket: WebSocket, request) => {
    const token = (request.query as { token?: unknown }).token;
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
      const userId = signedIn.user.id;
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
