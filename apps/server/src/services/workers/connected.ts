// Which of a user's workers have a Stratum connection authorized right now, from the pool's
// worker.connected / worker.disconnected events. With the roles in one process this is live;
// an API process apart from Stratum hears no events and knows only shares (empty registry).
import { splitWorkerName } from '@manjam/protocol';
import type { PoolEvents } from '../../events.js';

interface Presence {
  sessions: number;
  since: Date;
}

export class ConnectedWorkers {
  /** userId -> lowercased worker name -> open authorized sessions. */
  private readonly byUser = new Map<number, Map<string, Presence>>();
  private readonly offs: (() => void)[];

  constructor(events: PoolEvents, now: () => number) {
    this.offs = [
      events.on('worker.connected', (e) => {
        if (e.userId === null) return;
        const names = this.byUser.get(e.userId) ?? new Map<string, Presence>();
        const name = splitWorkerName(e.login).worker.toLowerCase();
        const presence = names.get(name);
        if (presence) presence.sessions += 1;
        else names.set(name, { sessions: 1, since: new Date(now()) });
        this.byUser.set(e.userId, names);
      }),
      events.on('worker.disconnected', (e) => {
        if (e.userId === null) return;
        const names = this.byUser.get(e.userId);
        const name = splitWorkerName(e.login).worker.toLowerCase();
        const presence = names?.get(name);
        if (!names || !presence) return;
        presence.sessions -= 1;
        if (presence.sessions <= 0) names.delete(name);
        if (names.size === 0) this.byUser.delete(e.userId);
      }),
    ];
  }

  /** Since when the user's worker (any case) has been connected and authorized; null when it is not. */
  connectedSince(userId: number, workerName: string): Date | null {
    return this.byUser.get(userId)?.get(workerName.toLowerCase())?.since ?? null;
  }

  close(): void {
    for (const off of this.offs) off();
  }
}
