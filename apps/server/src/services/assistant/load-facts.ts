import { isCoin } from '@manjam/protocol';
import { COIN_IDS, type CoinId } from '../../config/constants.js';
import { payoutThresholdBounds, type PayoutThresholdConfig } from '../../config/payout-thresholds.js';
import {
  findAssistantUser,
  listAssistantMoney,
  listAssistantThresholds,
  listAssistantWorkers,
} from '../../db/repositories/assistant-facts.js';
import { RevenueQueries } from '../../db/repositories/queries-revenue.js';
import type { Queryable } from '../../db/types.js';
import { unsettledMoney } from '../shared/unsettled.js';
import type { MinerFacts, WorkerFact } from './facts.js';
import { loadUserHashrate, type UserHashrate } from '../shared/hashrate.js';

export interface FactOptions {
  now: Date;
  /** A worker without an accepted share for this long is offline (the alerts' threshold). */
  offlineAfterMs: number;
  /** The pool's default payout threshold per coin, in coin units (config.accounting.payoutThresholds). */
  defaultThresholds: Record<CoinId, PayoutThresholdConfig>;
  /** config.accounting.settlementHourUtc: "today" is the open settlement day. */
  settlementHourUtc: number;
  /** The figures the other screens show (the workers snapshot); read fresh from the database when absent. */
  hashrate?: (userId: number) => Promise<UserHashrate>;
}

/** Gathers a signed-in miner's live facts; undefined when the user does not exist. */
export async function loadMinerFacts(
  db: Queryable,
  userId: number,
  options: FactOptions,
): Promise<MinerFacts | undefined> {
  const { now } = options;
  const user = await findAssistantUser(db, userId);
  if (!user) return undefined;
  const [workerRows, moneyRows, thresholdRows, hashrate] = await Promise.all([
    listAssistantWorkers(db, userId, { hourSince: new Date(now.getTime() - 3_600_000) }),
    listAssistantMoney(db, userId),
    listAssistantThresholds(db, userId),
    options.hashrate ? options.hashrate(userId) : loadUserHashrate(db, userId, now),
  ]);
  const queries = new RevenueQueries(db);
  const unsettled = await Promise.all(
    moneyRows.map((row) =>
      unsettledMoney(queries, userId, row.coin, now, { settlementHourUtc: options.settlementHourUtc }),
    ),
  );
  const workers: WorkerFact[] = workerRows.flatMap((row) => {
    if (!isCoin(row.coin)) return [];
    const submitted = row.acceptedHour + row.rejectedHour;
    return [
      {
        name: row.name,
        coin: row.coin,
        online:
          row.lastShareAt !== null && now.getTime() - row.lastShareAt.getTime() < options.offlineAfterMs,
        lastShareAt: row.lastShareAt,
        hashrate: hashrate.workers.get(row.id)?.realtime ?? 0,
        hashrate24h: hashrate.workers.get(row.id)?.day ?? 0,
        rejectedPercent: submitted > 0 ? (row.rejectedHour / submitted) * 100 : 0,
      },
    ];
  });
  const money = moneyRows.flatMap((row, i) =>
    isCoin(row.coin)
      ? [
          {
            coin: row.coin,
            balance: row.balance,
            earnedToday: unsettled[i]?.accrued ?? 0n,
            immature: unsettled[i]?.immature ?? 0n,
            lastPayoutRunAt: row.lastPayoutRunAt,
            lastPaid:
              row.lastPaidAmount !== null && row.lastPaidAt !== null
                ? { amount: row.lastPaidAmount, at: row.lastPaidAt, txid: row.lastPaidTxid }
                : null,
          },
        ]
      : [],
  );
  // One threshold per coin: the account's own where set, else the pool's default.
  const payoutThresholds = Object.fromEntries(
    COIN_IDS.map((coin) => [
      coin,
      thresholdRows.find((row) => row.coin === coin)?.threshold ??
        payoutThresholdBounds(options.defaultThresholds, coin).default,
    ]),
  ) as Record<CoinId, bigint>;
  return {
    username: user.username,
    payoutThresholds,
    payoutAddressSet: user.payoutAddressSet,
    timeZone: user.timeZone,
    workers,
    hashrates: hashrate.algorithms,
    money,
  };
}
