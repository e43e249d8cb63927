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

/** One connection of its own, held until released (session state such as advisory locks lives on it). */
export interface DedicatedConnection extends Queryable {
  /** Resolves with the reason once the connection is gone (server restart, network, release). */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

/** The embedded database's own memory (its thread's V8 heap and its WebAssembly memory), bytes. */
export interface DatabaseMemory {
  heapUsedBytes: number;
  heapTotalBytes: number;
  /** PostgreSQL's WebAssembly memory: its shared buffers, caches and working memory. */
  wasmBytes: number;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * A connection outside the pool, for session-scoped state held for the process lifetime.
   * Only PostgreSQL has it: embedded PGlite serves one process, which holds everything trivially.
   */
  dedicated?(): Promise<DedicatedConnection>;
  /** The embedded database's own memory (PGlite on its thread); absent for PostgreSQL, a process of its own. */
  memory?(): Promise<DatabaseMemory>;
  /** The embedded database's whole data directory as an uncompressed tar (PGlite only). */
  dump?(): Promise<Uint8Array>;
}
