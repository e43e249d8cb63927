/**
 * Temporary bans for addresses whose shares are mostly invalid. Each session counts its submits;
 * after `checkAfterShares` of them, when at least `invalidPercent` % were invalid (stale shares
 * do not count: they happen to honest miners around every new block), its IP is banned for
 * `durationSeconds` and its connections are closed. Counting restarts after each check.
 */
export interface BanSettings {
  enabled: boolean;
  checkAfterShares: number;
  invalidPercent: number;
  durationSeconds: number;
}

export class BanList {
  private readonly until = new Map<string, number>();

  constructor(private readonly settings: BanSettings) {}

  isBanned(ip: string, nowMs: number = Date.now()): boolean {
    const end = this.until.get(ip);
    if (end === undefined) return false;
    if (end > nowMs) return true;
    this.until.delete(ip);
    return false;
  }

  /** True when this window of a session's submits earns its IP a ban (the ban is recorded). */
  judge(ip: string, submitted: number, invalid: number, nowMs: number = Date.now()): boolean {
    if (!this.settings.enabled || submitted < this.settings.checkAfterShares) return false;
    if ((invalid * 100) / submitted < this.settings.invalidPercent) return false;
    this.until.set(ip, nowMs + this.settings.durationSeconds * 1000);
    return true;
  }

  /** Whether a session has submitted enough for a verdict. */
  due(submitted: number): boolean {
    return this.settings.enabled && submitted >= this.settings.checkAfterShares;
  }

  sweep(nowMs: number = Date.now()): void {
    for (const [ip, end] of this.until) if (end <= nowMs) this.until.delete(ip);
  }
}
