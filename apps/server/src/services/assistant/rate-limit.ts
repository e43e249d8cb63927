/**
 * A sliding-window limiter per key (a user id or an IP): at most `max` hits in `windowMs`.
 * In memory, per process; memory stays bounded because idle keys are swept.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Records a hit and answers whether it is allowed; `retryAfterMs` says when the next one will be. */
  hit(key: string, now = Date.now()): { allowed: boolean; retryAfterMs: number } {
    this.sweep(now);
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((time) => time > since);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return { allowed: false, retryAfterMs: (recent[0] ?? now) + this.windowMs - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true, retryAfterMs: 0 };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, times] of this.hits) {
      if ((times[times.length - 1] ?? 0) <= now - this.windowMs) this.hits.delete(key);
    }
  }
}
