/** The one seam between repositories and a database driver (PGlite or node-postgres). */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
