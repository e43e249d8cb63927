// Workers that are connected and authorized but have no stored row: a login writes nothing into an
// account. The owner still sees such a worker on /workers at once, "Connected,
// waiting for the first share", from the live session registry (connected.ts); its row is written by
// the share writer with its first accepted share, and only then does it get an id (detail page,
// rename, delete), hashrate, and a place in the public lookup.
import { poolCoinOr, type Worker } from '@manjam/contract';
import { algorithmOf } from '@manjam/protocol';
import { hardwareOf } from '../../db/repositories/workers.js';
import { algorithmId } from '../stats/figures.js';
import { connectedKey, type Presence } from './connected.js';

/**
 * At most this many connected-but-never-stored workers are listed per account (the longest
 * connected first). Anyone can log in under an account's name, and every such login is listed to
 * the owner while its session lasts; this bound keeps a stranger's thousands of logins from
 * burying the owner's page. Stored workers are always listed in full.
 */
export const PENDING_WORKERS_SHOWN = 100;

export type PendingWorker = Presence;

/**
 * The user's connected workers with no row (deleted ones have a row: they stay deleted until an
 * accepted share brings them back) that the caller `wanted` (a search), at most PENDING_WORKERS_SHOWN.
 */
export function pendingWorkers(
  connected: readonly Presence[],
  stored: ReadonlySet<string>,
  wanted: (p: Presence) => boolean = () => true,
): PendingWorker[] {
  const pending: PendingWorker[] = [];
  for (const presence of connected) {
    if (pending.length >= PENDING_WORKERS_SHOWN) break;
    if (!stored.has(connectedKey(presence.coin, presence.name)) && wanted(presence)) pending.push(presence);
  }
  return pending;
}

/** A connected worker without a row as the API lists it: no id yet, nothing counted. */
export function toPendingWorker(p: PendingWorker, username: string): Worker {
  const coin = poolCoinOr(p.coin);
  return {
    id: null,
    name: p.name,
    fullName: `${username}.${p.name}`,
    coin,
    status: 'connected',
    hashrate: 0,
    hashrate1h: 0,
    hashrate24h: 0,
    rejectRate: 0,
    sparkline: [],
    change: '0.0%',
    shares: 0,
    rejects: 0,
    lastSeen: null,
    type: hardwareOf(coin),
    algorithm: algorithmId(algorithmOf(coin), coin),
  };
}
