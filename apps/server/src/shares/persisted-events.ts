import type { PoolEvents } from '../events.js';
import type { PersistResult } from './persist.js';

/** Tells the live feed what a stored batch brought: shares per payee, and found blocks. */
export function emitPersisted(events: PoolEvents, result: PersistResult): void {
  for (const p of result.payees) {
    events.emit('shares.flushed', {
      coin: p.coin,
      payeeId: p.payeeId,
      userId: p.userId,
      workerIds: [...p.workerIds],
      count: p.count,
    });
  }
  for (const b of result.blocks) events.emit('block.found', b);
}
