/**
 * A small stale-while-revalidate cache for per-user aggregates. A fresh value is served as is; a
 * stale one is served while one refresh runs in the background; a missing (or invalidated) one
 * is loaded once for all waiting callers.
 */
export class SwrCache<V> {
  private readonly entries = new Map<
    string,
    { value?: V; at: number; pending?: Promise<V>; generation: number }
  >();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry?.value !== undefined) {
      if (this.now() - entry.at >= this.ttlMs && !entry.pending) {
        this.refresh(key, load).catch(this.onError);
      }
      return entry.value;
    }
    if (entry?.pending) return entry.pending;
    return this.refresh(key, load);
  }

  /** Drops a value: the next read waits for fresh data (after a user's own change). */
  invalidate(key: string): void {
    this.entries.delete(key);
  }

  /** Marks a value stale: the next read refreshes it in the background (new shares arrived). */
  markStale(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.at = 0;
  }

  private refresh(key: string, load: () => Promise<V>): Promise<V> {
    const generation = ++this.generation;
    const previous = this.entries.get(key);
    const pending = load().then(
      (value) => {
        const current = this.entries.get(key);
        if (current && current.generation === generation) {
          this.entries.set(key, { value, at: this.now(), generation });
        }
        return value;
      },
      (error: unknown) => {
        const current = this.entries.get(key);
        if (current && current.generation === generation) {
          if (current.value === undefined) this.entries.delete(key);
          else current.pending = undefined;
        }
        throw error;
      },
    );
    if (this.entries.size >= this.maxEntries && !previous) this.entries.clear();
    this.entries.set(key, { value: previous?.value, at: previous?.at ?? 0, pending, generation });
    return pending;
  }
}
