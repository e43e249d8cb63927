// The cap on live credentials an account holds at once (API tokens, watcher links): counted and
// created in one transaction that first locks the account's row, so parallel requests cannot both
// see room for one more.
import type { Database, Queryable } from '../../db/index.js';
import type { ServiceError } from '../errors.js';

export interface LiveCap<T> {
  cap: number;
  refusal: () => ServiceError;
  countLive: (tx: Queryable) => Promise<number>;
  create: (tx: Queryable) => Promise<T>;
}

export function withinLiveCap<T>(db: Database, userId: number, rule: LiveCap<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    if ((await rule.countLive(tx)) >= rule.cap) throw rule.refusal();
    return rule.create(tx);
  });
}
