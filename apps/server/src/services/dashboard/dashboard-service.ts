import {
  POOL_COINS,
  type AlgorithmHashrate,
  type Dashboard,
  type HashrateSeries,
  poolCoinOr,
  type PoolCoin,
} from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import { ActivityQueries } from '../../db/repositories/queries-activity.js';
import { RevenueQueries } from '../../db/repositories/queries-revenue.js';
import { HASH_FACTORS, percentChange } from '../stats/figures.js';
import { SwrCache } from '../stats/swr-cache.js';
import { toUnsettled, unsettledMoney, type MoneyClock } from '../shared/unsettled.js';

const DAY_MS = 86_400_000;
export const DASHBOARD_CACHE_MS = 10_000;
export const SERIES_CACHE_MS = 30_000;

const WINDOWS = { '24h': DAY_MS, '7d': 7 * DAY_MS } as const;
const STEPS = { '10m': 600, '1h': 3_600 } as const;

export interface DashboardDeps {
  db: Queryable;
  now: () => number;
  onError: (error: unknown) => void;
  /** When the open (not yet settled) day began and when credits are behind (moneyClockOf(config)). */
  money: MoneyClock;
  /**
   * The user's hashrate per algorithm and when it was read (ms): the workers page's snapshot, so both
   * screens show one computation.
   */
  hashrates: (userId: number) => Promise<{ hashrates: AlgorithmHashrate[]; at: number }>;
}

/**
 * The dashboard cards: hashrate per algorithm (real-time and 24 h, shared/hashrate.ts), and over the
 * last 24 h with the change against the 24 h before: active miners (workers with accepted shares),
 * unpaid balance (ledger sum now vs. 24 h ago) and earnings (credits other than payouts).
 */
export class DashboardService {
  private readonly activity: ActivityQueries;
  private readonly revenue: RevenueQueries;
  /** The cards without the hashrate (read from the workers snapshot on every request) and when they were read. */
  private readonly cards: SwrCache<Omit<Dashboard, 'hashrates' | 'asOf'> & { at: number }>;
  private readonly series: SwrCache<HashrateSeries>;
  /** JSON per cached cards value and hashrate snapshot. */
  private readonly serialized = new WeakMap<object, { hashrates: AlgorithmHashrate[]; json: string }>();

  constructor(private readonly deps: DashboardDeps) {
    this.activity = new ActivityQueries(deps.db);
    this.revenue = new RevenueQueries(deps.db);
    this.cards = new SwrCache(DASHBOARD_CACHE_MS, deps.now, deps.onError);
    this.series = new SwrCache(SERIES_CACHE_MS, deps.now, deps.onError);
  }

  /** The coin a user's money figures are shown in: their preferred coin when Manjam mines it. */
  static dashboardCoin(preferredCoin: string): PoolCoin {
    return poolCoinOr(preferredCoin);
  }

  /** New shares: the cards and the user's series refresh behind their next read (each within its age). */
  sharesArrived(userId: number): void {
    for (const coin of POOL_COINS) this.cards.markStale(`${userId}:${coin}`);
    for (const key of this.seriesKeys(userId)) this.series.markStale(key);
  }

  private seriesKeys(userId: number): string[] {
    return Object.keys(WINDOWS).flatMap((w) =>
      Object.keys(STEPS).flatMap((st) => POOL_COINS.map((coin) => `${userId}:${w}:${st}:${coin}`)),
    );
  }

  moneyChanged(userId: number): void {
    for (const coin of POOL_COINS) this.cards.invalidate(`${userId}:${coin}`);
  }

  /**
   * The cards as JSON text, serialized once per cached value and hashrate snapshot. The hashrate is
   * the workers page's current figures (read on every request), so both screens always agree.
   */
  async getJson(userId: number, preferredCoin: string): Promise<string> {
    const coin = DashboardService.dashboardCoin(preferredCoin);
    const [cards, figures] = await Promise.all([
      this.cards.get(`${userId}:${coin}`, () => this.load(userId, coin)),
      this.deps.hashrates(userId),
    ]);
    const { hashrates } = figures;
    const hit = this.serialized.get(cards);
    if (hit && hit.hashrates === hashrates) return hit.json;
    const { at, ...shown } = cards;
    // The answer is as old as its oldest figure.
    const json = JSON.stringify({
      ...shown,
      hashrates,
      asOf: new Date(Math.min(at, figures.at)).toISOString(),
    });
    this.serialized.set(cards, { hashrates, json });
    return json;
  }

  hashrate(
    userId: number,
    window: keyof typeof WINDOWS,
    step: keyof typeof STEPS,
    coin: PoolCoin,
  ): Promise<HashrateSeries> {
    return this.series.get(`${userId}:${window}:${step}:${coin}`, () =>
      this.loadSeries(userId, window, step, coin),
    );
  }

  private async load(
    userId: number,
    coin: PoolCoin,
  ): Promise<Omit<Dashboard, 'hashrates' | 'asOf'> & { at: number }> {
    const now = this.deps.now();
    const to = new Date(now);
    const mid = new Date(now - DAY_MS);
    const from = new Date(now - 2 * DAY_MS);
    const [totals, money, unsettled] = await Promise.all([
      this.activity.userTotals(userId, from, mid, to, HASH_FACTORS),
      this.revenue.balanceFigures(userId, coin, from, mid, to),
      unsettledMoney(this.revenue, userId, coin, to, this.deps.money),
    ]);
    return {
      activeMiners: {
        value: totals.currentWorkers,
        change: percentChange(totals.currentWorkers, totals.previousWorkers),
      },
      unpaidBalance: {
        value: money.balance.toString(),
        change: percentChange(money.balance, money.balanceAt),
      },
      dailyEarnings: {
        value: money.earningsCurrent.toString(),
        change: percentChange(money.earningsCurrent, money.earningsPrevious),
      },
      coin,
      unsettled: toUnsettled(unsettled),
      at: now,
    };
  }

  private async loadSeries(
    userId: number,
    window: keyof typeof WINDOWS,
    step: keyof typeof STEPS,
    coin: PoolCoin,
  ): Promise<HashrateSeries> {
    const stepSeconds = STEPS[step];
    const stepMs = stepSeconds * 1000;
    const now = this.deps.now();
    // The last bucket is the current, partial one; its rate is over the time elapsed so far.
    const end = Math.floor(now / stepMs) * stepMs + stepMs;
    const start = end - WINDOWS[window];
    const sums = await this.activity.userSeries(
      userId,
      coin,
      new Date(start),
      new Date(end),
      stepSeconds,
      HASH_FACTORS,
    );
    const points = [];
    const slots = WINDOWS[window] / stepMs;
    for (let slot = 0; slot < slots; slot++) {
      const bucketStart = start + slot * stepMs;
      const seconds = slot === slots - 1 ? Math.max(60, (now - bucketStart) / 1000) : stepSeconds;
      points.push({ time: new Date(bucketStart).toISOString(), value: (sums.get(slot) ?? 0) / seconds });
    }
    return { points, unit: 'H/s' };
  }

  /** Drops the user's cached cards and series (tests; a user's own changes). */
  forget(userId: number): void {
    for (const coin of POOL_COINS) this.cards.invalidate(`${userId}:${coin}`);
    for (const key of this.seriesKeys(userId)) this.series.invalidate(key);
  }
}
