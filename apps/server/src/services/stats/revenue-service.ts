import type { Payout, PayoutPage, RevenueSummary, Reward, RewardPage } from '@manjam/contract';
import { PAYOUT_SCHEMES, POOL_COINS } from '@manjam/contract';
import { baseUnitsToDecimal, decimalsOf } from '@manjam/protocol';
import type { Queryable } from '../../db/index.js';
import { RevenueQueries, type PayoutRow, type SettlementRow } from '../../db/repositories/queries-revenue.js';
import { SettingsRepository } from '../../db/repositories/settings.js';
import { userTimeZone, zonedTime } from '../shared/format.js';
import { toUnsettled, unsettledMoney, type MoneyClock } from '../shared/unsettled.js';
import { toCsv } from './csv.js';

export const CSV_MAX_ROWS = 10_000;

export interface RevenueFilters {
  page: number;
  pageSize: number;
  search?: string | undefined;
  coin?: string | undefined;
  status?: Payout['status'] | undefined;
}

const STATUS_TO_DB: Record<Payout['status'], readonly string[]> = {
  completed: ['sent', 'confirmed'],
  pending: ['pending'],
  failed: ['failed'],
};

/** Settlement time: the settled day at 03:00 UTC (the seed's "date plus 03:00"). */
const settledAt = (day: string) => `${day}T03:00:00.000Z`;

export function toReward(row: SettlementRow): Reward {
  const scheme = (PAYOUT_SCHEMES as readonly string[]).includes(row.scheme)
    ? (row.scheme as Reward['description'])
    : 'pps-plus';
  return {
    id: row.id,
    date: row.day,
    settledAt: settledAt(row.day),
    avgHashrate: row.avgHashrate,
    amount: row.amount.toString(),
    coin: row.coin as Reward['coin'],
    difficulty: row.networkDifficulty,
    description: scheme,
  };
}

export function toPayout(row: PayoutRow): Payout {
  const status: Payout['status'] =
    row.status === 'sent' || row.status === 'confirmed'
      ? 'completed'
      : row.status === 'failed'
        ? 'failed'
        : 'pending';
  return {
    id: row.id,
    date: (row.sentAt ?? row.createdAt).toISOString(),
    amount: row.amount.toString(),
    coin: row.coin as Payout['coin'],
    txId: row.txid,
    status,
    address: row.address,
    confirmations: row.confirmations,
    failure: status === 'failed' ? row.failure : null,
  };
}

/** Rewards (daily settlements) and payouts of a user: pages, search, filters, CSV. */
export class RevenueService {
  private readonly queries: RevenueQueries;
  private readonly settings: SettingsRepository;

  constructor(
    db: Queryable,
    private readonly now: () => number,
    private readonly money: MoneyClock,
  ) {
    this.queries = new RevenueQueries(db);
    this.settings = new SettingsRepository(db);
  }

  /** The user's time zone, for the times of a CSV file (written without a browser). */
  private async timeZone(userId: number): Promise<string> {
    return userTimeZone(await this.settings.get(userId));
  }

  /** Per pool coin: unpaid balance, today's accrued credits and immature block credits. */
  async summary(userId: number): Promise<RevenueSummary> {
    const now = new Date(this.now());
    const [balances, ...unsettled] = await Promise.all([
      this.queries.balances(userId),
      ...POOL_COINS.map((coin) => unsettledMoney(this.queries, userId, coin, now, this.money)),
    ]);
    return {
      coins: POOL_COINS.map((coin, i) => {
        const money = unsettled[i];
        if (!money) throw new RangeError(`no figures for ${coin}`);
        return { coin, balance: (balances.get(coin) ?? 0n).toString(), ...toUnsettled(money) };
      }),
    };
  }

  async rewards(userId: number, f: RevenueFilters): Promise<RewardPage> {
    const { rows, total } = await this.queries.settlements(userId, {
      search: f.search || undefined,
      coin: f.coin,
      limit: f.pageSize,
      offset: (f.page - 1) * f.pageSize,
    });
    return { items: rows.map(toReward), page: f.page, pageSize: f.pageSize, total };
  }

  async payouts(userId: number, f: RevenueFilters): Promise<PayoutPage> {
    const { rows, total } = await this.queries.payouts(userId, {
      search: f.search || undefined,
      coin: f.coin,
      statuses: f.status ? STATUS_TO_DB[f.status] : undefined,
      limit: f.pageSize,
      offset: (f.page - 1) * f.pageSize,
    });
    return { items: rows.map(toPayout), page: f.page, pageSize: f.pageSize, total };
  }

  async rewardsCsv(userId: number, f: RevenueFilters): Promise<string> {
    const [page, zone] = await Promise.all([
      this.rewards(userId, { ...f, page: 1, pageSize: CSV_MAX_ROWS }),
      this.timeZone(userId),
    ]);
    return toCsv(
      [
        `Settlement Time (${zone})`,
        'Coin',
        'Avg. Hashrate Per Day (H/s)',
        'Amount',
        'Amount (base units)',
        'Difficulty',
        'Description',
      ],
      page.items.map((r) => [
        zonedTime(new Date(r.settledAt), zone, true),
        r.coin,
        r.avgHashrate,
        baseUnitsToDecimal(BigInt(r.amount), decimalsOf(r.coin)),
        r.amount,
        r.difficulty,
        r.description,
      ]),
    );
  }

  async payoutsCsv(userId: number, f: RevenueFilters): Promise<string> {
    const [page, zone] = await Promise.all([
      this.payouts(userId, { ...f, page: 1, pageSize: CSV_MAX_ROWS }),
      this.timeZone(userId),
    ]);
    return toCsv(
      [
        `Date (${zone})`,
        'Coin',
        'Amount',
        'Amount (base units)',
        'Status',
        'Transaction ID',
        'Address',
        'Confirmations',
        'Failure',
      ],
      page.items.map((p) => [
        zonedTime(new Date(p.date), zone, true),
        p.coin,
        baseUnitsToDecimal(BigInt(p.amount), decimalsOf(p.coin)),
        p.amount,
        p.status,
        p.txId,
        p.address,
        p.confirmations,
        p.failure,
      ]),
    );
  }
}
