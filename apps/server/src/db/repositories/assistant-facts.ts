import type { Queryable } from '../types.js';
import { USER_TIME_ZONE_SQL } from './settings.js';

// What the assistant reads about one signed-in miner: the payees of the `user_payees` view
// (account payees plus the registered wallet's). Parameterized SQL only.

export interface AssistantUserRow {
  username: string;
  preferredCoin: string;
  /** A payout address set or pending for any coin (registration writes the first one). */
  payoutAddressSet: boolean;
  /** The zone the miner reads times in (settings.ts USER_TIME_ZONE_SQL). */
  timeZone: string;
}

export interface AssistantWorkerRow {
  id: number;
  name: string;
  coin: string;
  lastShareAt: Date | null;
  /** Accepted and rejected submits since `hourSince` (hashrates come from services/shared/hashrate.ts). */
  acceptedHour: number;
  rejectedHour: number;
}

export interface AssistantMoneyRow {
  coin: string;
  balance: bigint;
  lastPayoutRunAt: Date | null;
  lastPaidAmount: bigint | null;
  lastPaidAt: Date | null;
  lastPaidTxid: string | null;
}

const MY_PAYEES = `SELECT payee_id AS id, coin FROM user_payees WHERE user_id = $1`;

export async function findAssistantUser(
  db: Queryable,
  userId: number,
): Promise<AssistantUserRow | undefined> {
  const result = await db.query<AssistantUserRow>(
    `SELECT u.username, u.preferred_coin AS "preferredCoin",
            EXISTS (SELECT 1 FROM user_payout_settings a
                     WHERE a.user_id = u.id AND (a.address IS NOT NULL OR a.pending_address IS NOT NULL))
              AS "payoutAddressSet",
            ${USER_TIME_ZONE_SQL} AS "timeZone"
       FROM users u LEFT JOIN user_settings s ON s.user_id = u.id
      WHERE u.id = $1`,
    [userId],
  );
  return result.rows[0];
}

/** The account's own payout threshold per coin, base units (coins without one use the pool default). */
export async function listAssistantThresholds(
  db: Queryable,
  userId: number,
): Promise<{ coin: string; threshold: bigint }[]> {
  const result = await db.query<{ coin: string; threshold: bigint | string }>(
    `SELECT coin, threshold FROM user_payout_settings WHERE user_id = $1 AND threshold IS NOT NULL`,
    [userId],
  );
  return result.rows.map((row) => ({ coin: row.coin, threshold: BigInt(row.threshold) }));
}

/** The miner's visible workers with their accepted and rejected submits since `hourSince`. */
export async function listAssistantWorkers(
  db: Queryable,
  userId: number,
  windows: { hourSince: Date },
): Promise<AssistantWorkerRow[]> {
  const result = await db.query<AssistantWorkerRow>(
    `WITH mine AS (${MY_PAYEES})
     SELECT w.id, coalesce(w.display_name, w.name) AS name, w.coin, w.last_share_at AS "lastShareAt",
            coalesce(sum(st.accepted), 0)::float8 AS "acceptedHour",
            coalesce(sum(st.stale + st.duplicate + st.low_difficulty + st.invalid), 0)::float8 AS "rejectedHour"
       FROM workers w
       JOIN mine ON mine.id = w.payee_id
       LEFT JOIN share_stats st ON st.worker_id = w.id AND st.bucket >= $2
      WHERE w.hidden_at IS NULL
      GROUP BY w.id
      ORDER BY name, w.id`,
    [userId, windows.hourSince],
  );
  return result.rows;
}

/** Per coin: unpaid balance, the pool's last payout run and the miner's last payout (today's credits: services/shared/unsettled.ts). */
export async function listAssistantMoney(db: Queryable, userId: number): Promise<AssistantMoneyRow[]> {
  const result = await db.query<AssistantMoneyRow>(
    `WITH mine AS (${MY_PAYEES}),
     bal AS (SELECT b.coin, sum(b.amount) AS amount FROM balances b JOIN mine ON mine.id = b.payee_id GROUP BY b.coin),
     runs AS (SELECT r.coin, max(r.created_at) AS at FROM payout_runs r WHERE r.status <> 'failed' GROUP BY r.coin),
     paid AS (SELECT DISTINCT ON (po.coin) po.coin, po.amount, coalesce(po.sent_at, po.created_at) AS at, po.txid
                FROM payouts po JOIN mine ON mine.id = po.payee_id
               WHERE po.status IN ('sent', 'confirmed') ORDER BY po.coin, po.id DESC)
     SELECT c.coin, coalesce(bal.amount, 0)::bigint AS balance,
            runs.at AS "lastPayoutRunAt", paid.amount AS "lastPaidAmount", paid.at AS "lastPaidAt", paid.txid AS "lastPaidTxid"
       FROM (SELECT DISTINCT coin FROM mine) c
       LEFT JOIN bal ON bal.coin = c.coin
       LEFT JOIN runs ON runs.coin = c.coin
       LEFT JOIN paid ON paid.coin = c.coin
      ORDER BY c.coin`,
    [userId],
  );
  return result.rows;
}
