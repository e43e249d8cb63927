// Which of a user's workers have a Stratum connection authorized right now, from the pool's
// worker.connected / worker.disconnected events. With the roles in one process this is live;
// an API process apart from Stratum hears no events and knows only shares (empty registry).
// This registry is the only place a login shows up in an account: an authorization writes no
// row (anyone may log in as "bob.<anything>"); the permanent worker row is written by
// the share writer with the worker's first accepted share (shares/persist.ts).
import { splitWorkerName } from '@manjam/protocol';
import type { CoinId } from '../../config/index.js';
import type { PoolEvents } from '../../events.js';

/** A worker name with an authorized session on a coin; `name` as its first session spelt it. */
export interface Presence {
  coin: CoinId;
  name: string;
  sessions: number;
  since: Date;
}

/** `${coin}:${lowercased worker name}`: a worker is one name on one coin, in any case. */
const keyOf = (coin: string, name: string): string => `${coin}:${name.toLowerCase()}`;

interface UserPresence {
  /** Changes with every session that adds or removes one of the user's presences. */
  stamp: number;
  /** keyOf(coin, worker) -> that worker's sessions on that coin. */
  byKey: Map<string, Presence>;
  /** Lowercased worker name -> its presences on every coin (Test Connection asks by name only). */
  byName: Map<string, Presence[]>;
}

export class ConnectedWorkers {
  private readonly byUser = new Map<number, UserPresence>();
  private readonly offs: (() => void)[];
  private stamps = 0;

  constructor(events: PoolEvents, now: () => number) {
    this.offs = [
      events.on('worker.connected', (e) => {
        if (e.userId !== null) this.add(e.userId, e.coin, e.login, now());
      }),
      events.on('worker.disconnected', (e) => {
        if (e.userId !== null) this.remove(e.userId, e.coin, e.login);
      }),
    ];
  }

  private add(userId: number, coin: CoinId, login: string, at: number): void {
    const user: UserPresence = this.byUser.get(userId) ?? {
      stamp: 0,
      byKey: new Map<string, Presence>(),
      byName: new Map<string, Presence[]>(),
    };
    this.byUser.set(userId, user);
    user.stamp = ++this.stamps;
    const name = splitWorkerName(login.trim()).worker;
    const key = keyOf(coin, name);
    const presence = user.byKey.get(key);
    if (presence) {
      presence.sessions += 1;
      return;
    }
    const added: Presence = { coin, name, sessions: 1, since: new Date(at) };
    user.byKey.set(key, added);
    const lower = name.toLowerCase();
    user.byName.set(lower, [...(user.byName.get(lower) ?? []), added]);
  }

  private remove(userId: number, coin: CoinId, login: string): void {
    const user = this.byUser.get(userId);
    const name = splitWorkerName(login.trim()).worker;
    const key = keyOf(coin, name);
    const presence = user?.byKey.get(key);
    if (!user || !presence) return;
    user.stamp = ++this.stamps;
    presence.sessions -= 1;
    if (presence.sessions > 0) return;
    user.byKey.delete(key);
    const lower = name.toLowerCase();
    const rest = (user.byName.get(lower) ?? []).filter((p) => p !== presence);
    if (rest.length > 0) user.byName.set(lower, rest);
    else user.byName.delete(lower);
    if (user.byKey.size === 0) this.byUser.delete(userId);
  }

  /**
   * Since when the user's worker (any case, any coin) has been connected and authorized; null when
   * it is not.
   */
  connectedSince(userId: number, workerName: string): Date | null {
    const presences = this.byUser.get(userId)?.byName.get(workerName.toLowerCase()) ?? [];
    let since: Date | null = null;
    for (const p of presences) if (since === null || p.since < since) since = p.since;
    return since;
  }

  /**
   * Which state of the user's presences this is: equal stamps, same presences (0: none at all).
   * Pages built from the presences are reused only while the stamp stays the same.
   */
  stamp(userId: number): number {
    return this.byUser.get(userId)?.stamp ?? 0;
  }

  /** Every worker of the user with an authorized session now, the longest-connected first. */
  ofUser(userId: number): Presence[] {
    const list = [...(this.byUser.get(userId)?.byKey.values() ?? [])];
    return list.sort((a, b) => a.since.getTime() - b.since.getTime());
  }

  close(): void {
    for (const off of this.offs) off();
  }
}

export { keyOf as connectedKey };
