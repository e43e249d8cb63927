/**
 * A bounded stale-while-revalidate cache for per-user aggregates. No value older than `maxAgeMs`
 * (the cache's stated age) is ever served: a read past it waits for fresh data. A value younger
 * than `maxAgeMs / 2` is served as is; an older one (or one marked stale) is served while one
 * refresh runs in the background. A missing (or invalidated) value is loaded once for all waiting
 * callers.
 */
export class SwrCache<V> {
  private readonly entries = new Map<
    string,
    { value?: V; at: number; stale: boolean; pending?: Promise<V>; generation: number }
  >();
  private generation = 0;

  constructor(
    /** The oldest a served value may be, in ms (from the start of the read that produced it). */
    readonly maxAgeMs: number,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry?.value !== undefined) {
      const age = this.now() - entry.at;
      if (age >= 0 && age < this.maxAgeMs) {
        if ((entry.stale || age >= this.maxAgeMs / 2) && !entry.pending) {
          this.refresh(key, load).catch(this.onError);
        }
        return entry.value;
      }
      // Past its bound (or from a clock that went back): wait for fresh data.
      return entry.pending ?? this.refresh(key, load);
    }
    if (entry?.pending) return entry.pending;
    return this.refresh(key, load);
  }

  /** Drops a value: the next read waits for fresh data (after a user's own change). */
  invalidate(key: string): void {
    this.entries.delete(key);
  }

  /** Marks a value stale: the next read within its bound refreshes it in the background (new shares arrived). */
  markStale(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.stale = true;
  }

  private refresh(key: string, load: () => Promise<V>): Promise<V> {
    const generation = ++this.generation;
    const previous = this.entries.get(key);
    // The value's age counts from the start of its read: what it says was true then.
    const startedAt = this.now();
    const pending = load().then(
      (value) => {
        const current = this.entries.get(key);
        if (current && current.generation === generation) {
          this.entries.set(key, { value, at: startedAt, stale: false, generation });
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
    this.entries.set(key, {
      value: previous?.value,
      at: previous?.at ?? 0,
      stale: previous?.stale ?? false,
      pending,
      generation,
    });
    return pending;
  }
}
