// The pool process's database, counting the rows each statement writes per table (from the
// driver's row counts: an upsert's row counts once, inserted or updated). Bench-side only: the
// server's code is unchanged, its Database is wrapped.
import type { Database, Queryable, QueryResult } from '../../apps/server/src/db/index.js';

/** Per table: statements that wrote to it and rows written. */
export type WriteCounts = Record<string, { statements: number; rows: number }>;

const WRITE = /^\s*(?:INSERT\s+INTO|UPDATE)\s+([A-Za-z_][A-Za-z0-9_]*)/i;

export function countingDatabase(db: Database): { db: Database; writes: WriteCounts } {
  const writes: WriteCounts = {};
  const count = <R>(sql: string, result: QueryResult<R>): QueryResult<R> => {
    const table = WRITE.exec(sql)?.[1];
    if (table !== undefined) {
      const entry = (writes[table] ??= { statements: 0, rows: 0 });
      entry.statements++;
      entry.rows += result.rowCount;
    }
    return result;
  };
  const wrap = (q: Queryable): Queryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => count(sql, await q.query<R>(sql, params)),
    exec: (sql: string) => q.exec(sql),
  });
  const counted: Database = {
    ...wrap(db),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    ping: () => db.ping(),
    close: () => db.close(),
    ...(db.dedicated ? { dedicated: db.dedicated.bind(db) } : {}),
  };
  return { db: counted, writes };
}

/** Rows written per table between two readings. */
export function writesBetween(before: WriteCounts, after: WriteCounts): WriteCounts {
  const out: WriteCounts = {};
  for (const [table, a] of Object.entries(after)) {
    const b = before[table] ?? { statements: 0, rows: 0 };
    out[table] = { statements: a.statements - b.statements, rows: a.rows - b.rows };
  }
  return out;
}
