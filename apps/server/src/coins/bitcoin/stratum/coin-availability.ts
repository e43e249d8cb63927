// The Stratum side of node health: while no node of a coin answers (see chain/node-health.ts),
// its jobs are stale, its miners are told why and disconnected so their firmware fails over to
// a backup pool, and its ports turn new miners away. Work resumes with the next template.
import type { Socket } from 'node:net';
import type { CoinId } from '../../../config/index.js';
import type { SourceAvailability, TemplateSource } from '../source.js';
import type { PoolRuntime, PortRuntime, StratumSession } from './context.js';
import type { JobManager } from './jobs.js';

/** What miners are told (show_message, and the answer to a share) while a coin's work is paused. */
export const WORK_PAUSED_MESSAGE = 'Pool node unreachable; work paused';
const SHOW_PAUSED = `{"id":null,"method":"client.show_message","params":[${JSON.stringify(WORK_PAUSED_MESSAGE)}]}\n`;
/** Shares already on their way get their answer (21, work paused) before the connection ends. */
const ANSWER_GRACE_MS = 1_000;
/** Sockets told to go that have not hung up by then are cut. */
const CLOSE_GRACE_MS = 2_000;

/** Follows each source's availability; returns the unsubscribe function. */
export function watchCoinAvailability(
  pool: PoolRuntime,
  sources: readonly TemplateSource[],
  managers: Map<CoinId, JobManager>,
): () => void {
  const offs = sources.map((source) => {
    const react = (availability: SourceAvailability): void =>
      onAvailability(pool, source.coin, managers.get(source.coin), availability);
    const current = source.availability?.();
    if (current && !current.up) react(current);
    return source.onAvailability?.(react);
  });
  return () => {
    for (const off of offs) off?.();
  };
}

function onAvailability(
  pool: PoolRuntime,
  coin: CoinId,
  jobs: JobManager | undefined,
  availability: SourceAvailability,
): void {
  if (availability.up) {
    pool.logger.info({ coin }, 'a node answers again: miners are welcome once a fresh job is out');
    return;
  }
  jobs?.pause(WORK_PAUSED_MESSAGE);
  let closed = 0;
  for (const session of pool.sessions) {
    if (session.port.coin !== coin || session.closed) continue;
    sendAway(session);
    closed++;
  }
  pool.logger.warn(
    { coin, closed, downSince: availability.since },
    'work paused: miners disconnected, new connections refused',
  );
}

/** Tells the miner why, answers what it still sends (stale: work paused), then hangs up. */
function sendAway(session: StratumSession): void {
  session.notify('client.show_message', [WORK_PAUSED_MESSAGE]);
  setTimeout(() => {
    if (!session.closed) session.socket.end();
  }, ANSWER_GRACE_MS).unref();
  setTimeout(() => session.close('work paused'), ANSWER_GRACE_MS + CLOSE_GRACE_MS).unref();
}

/**
 * At the top of StratumPort.accept: a port whose coin has no current job (no node answers)
 * tells the miner why and closes. Returns true when the connection was refused.
 */
export function refuseWithoutWork(socket: Socket, port: PortRuntime): boolean {
  if (port.jobs.current) return false;
  socket.end(SHOW_PAUSED);
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  return true;
}
