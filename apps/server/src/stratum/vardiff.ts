/**
 * Variable share difficulty, one instance per session.
 *
 * The algorithm: the session keeps the gaps between its last 10 accepted shares (the first gap
 * is measured from the last retarget). At most once every `retargetSeconds`, on a share, the
 * average gap is compared with `targetSeconds`; when it lies outside target +- variancePercent
 * the difficulty becomes `difficulty * targetSeconds / averageGap`, so that the miner lands on
 * the target share rate. A miner that goes silent is lowered by a sweep (`onIdle`): when no share
 * has arrived for `retargetSeconds` (and for longer than the target allows), the silent time is
 * treated as one gap and the difficulty only goes down. Every result is clamped to
 * [max(min, protocol MIN_SHARE_DIFFICULTY, the miner's minimum-difficulty), max], so the pool
 * never sends a difficulty at which miners' 64-bit target arithmetic overflows. The session also
 * caps it, per template, at the network difficulty of the work it sends (`capAt`): a miner filters
 * its hashes by the share target, so one above the network's would make it discard blocks. The
 * cap never goes under the floor (a port minimum above the network's is the operator's choice;
 * /api/pool/ports shows both). Hints and a password's `d=` go through the same clamp.
 */
import type { VardiffSettings } from '../config/section.js';

export type { VardiffSettings };

const WINDOW = 10;

export class Vardiff {
  private readonly gaps = new Float64Array(WINDOW);
  private gapCount = 0;
  private gapNext = 0;
  private lastEventMs: number;
  private lastRetargetMs: number;
  private floor: number;
  /** The network difficulty of the work last sent (Infinity until the session says). */
  private network = Infinity;
  difficulty: number;

  constructor(
    private readonly settings: VardiffSettings,
    private readonly protocolMinimum: number,
    nowMs: number,
  ) {
    this.floor = Math.max(settings.min, protocolMinimum);
    this.difficulty = this.clamp(settings.start);
    this.lastEventMs = nowMs;
    this.lastRetargetMs = nowMs;
  }

  /** The lowest difficulty this session may get. */
  get minimum(): number {
    return this.floor;
  }

  /** The highest difficulty this session may get now: the port's max, the network's when lower (never under the floor). */
  get maximum(): number {
    return Math.min(this.settings.max, Math.max(this.floor, this.network));
  }

  clamp(difficulty: number): number {
    if (!Number.isFinite(difficulty) || difficulty <= 0) return this.floor;
    return Math.min(this.maximum, Math.max(this.floor, difficulty));
  }

  /**
   * The network difficulty of the work being sent: the session's difficulty is lowered to it when
   * above (never under the floor), and no retarget, hint or `d=` goes above it until the next
   * template says otherwise. True when the difficulty changed.
   */
  capAt(networkDifficulty: number): boolean {
    if (!Number.isFinite(networkDifficulty) || networkDifficulty <= 0) return false;
    this.network = networkDifficulty;
    const before = this.difficulty;
    this.difficulty = this.clamp(before);
    return this.difficulty !== before;
  }

  /** mining.configure minimum-difficulty: the miner asks never to go below `value`. */
  setMinerMinimum(value: number): void {
    this.floor = Math.min(this.settings.max, Math.max(this.settings.min, this.protocolMinimum, value));
    this.difficulty = this.clamp(this.difficulty);
  }

  /** mining.suggest_difficulty and similar: jump to a hinted difficulty within bounds. */
  set(difficulty: number, nowMs: number): number {
    this.difficulty = this.clamp(difficulty);
    this.reset(nowMs);
    return this.difficulty;
  }

  /** Records an accepted share; returns the new difficulty when a retarget is due. */
  onShare(nowMs: number): number | undefined {
    this.gaps[this.gapNext] = (nowMs - this.lastEventMs) / 1000;
    this.gapNext = (this.gapNext + 1) % WINDOW;
    if (this.gapCount < WINDOW) this.gapCount++;
    this.lastEventMs = nowMs;
    if (nowMs - this.lastRetargetMs < this.settings.retargetSeconds * 1000) return undefined;
    let sum = 0;
    for (let i = 0; i < this.gapCount; i++) sum += this.gaps[i]!;
    return this.retarget(sum / this.gapCount, nowMs, false);
  }

  /** Sweep for silent miners: lowers the difficulty when no share came for too long. */
  onIdle(nowMs: number): number | undefined {
    const silentSeconds = (nowMs - this.lastEventMs) / 1000;
    if (nowMs - this.lastRetargetMs < this.settings.retargetSeconds * 1000) return undefined;
    if (silentSeconds < this.settings.retargetSeconds) return undefined;
    return this.retarget(silentSeconds, nowMs, true);
  }

  private retarget(averageGap: number, nowMs: number, onlyDown: boolean): number | undefined {
    const { targetSeconds, variancePercent } = this.settings;
    const low = targetSeconds * (1 - variancePercent / 100);
    const high = targetSeconds * (1 + variancePercent / 100);
    if (averageGap >= low && averageGap <= high) {
      this.lastRetargetMs = nowMs;
      return undefined;
    }
    const wanted = this.clamp(this.difficulty * (targetSeconds / Math.max(averageGap, 0.001)));
    if ((onlyDown && wanted >= this.difficulty) || wanted === this.difficulty) {
      this.lastRetargetMs = nowMs;
      return undefined;
    }
    this.difficulty = wanted;
    this.reset(nowMs);
    return wanted;
  }

  private reset(nowMs: number): void {
    this.gapCount = 0;
    this.gapNext = 0;
    this.lastEventMs = nowMs;
    this.lastRetargetMs = nowMs;
  }
}
