import {
  claimPendingEmails,
  claimPendingPushes,
  deletePushSubscription,
  insertAlert,
  listBlockAlerts,
  listPayoutAlerts,
  listPushSubscriptions,
  listShareSumsSince,
  listWorkersForAlerts,
  markEmail,
  markEmailFailed,
  saveWorkerAlertState,
  type AlertPrefs,
  type BlockAlertRow,
  type DayShareSum,
  type WorkerAlertRow,
} from '../../db/repositories/alerts.js';
import type { Database } from '../../db/types.js';
import type { Logger } from '../../logger.js';
import { averagingSeconds, hashrateFromDifficulty } from '../shared/hashrate.js';
import { observeWorker, type RaisedAlert } from './detect.js';
import type { Mailer } from './mailer.js';
import { renderAlert, renderEmail } from './messages.js';
import { PushGoneError, type PushSender } from './push.js';
import type { AlertSettings } from '../../config/alerts.js';

export interface AlertContext {
  db: Database;
  settings: AlertSettings;
  now: () => Date;
  mailer: Mailer | null;
  push: PushSender | null;
  /** 24 h share sums per worker, refreshed every `hashrateAverageRefreshMinutes` (the average moves slowly). */
  dayCache: { at: number; sums: Map<number, DayShareSum> } | null;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
}

export interface RunCounts {
  raised: number;
  emailed: number;
  emailFailures: number;
  pushed: number;
  /** Webhook posts delivered, and failed attempts (each retried or given up: services/alerts/webhook.ts). */
  webhooked: number;
  webhookFailures: number;
}

const HOUR = 3_600_000;

function delivery(prefs: AlertPrefs, ctx: AlertContext) {
  return {
    inApp: prefs.notifications,
    emailStatus: prefs.emailAlerts && ctx.mailer ? ('pending' as const) : ('skipped' as const),
    push: ctx.push !== null,
  };
}

function observation(row: WorkerAlertRow, day: DayShareSum | undefined, now: Date) {
  return {
    ...row,
    recentHashrate: hashrateFromDifficulty(row.coin, row.difficultyRecent, 600),
    averageHashrate: day
      ? hashrateFromDifficulty(row.coin, day.difficulty, averagingSeconds(now, day.firstBucket))
      : 0,
    historySeconds: day ? (now.getTime() - day.firstBucket.getTime()) / 1000 : 0,
  };
}

async function daySums(ctx: AlertContext, now: Date): Promise<Map<number, DayShareSum>> {
  const maxAge = ctx.settings.hashrateAverageRefreshMinutes * 60_000;
  if (!ctx.dayCache || now.getTime() - ctx.dayCache.at >= maxAge || now.getTime() < ctx.dayCache.at) {
    ctx.dayCache = {
      at: now.getTime(),
      sums: await listShareSumsSince(ctx.db, new Date(now.getTime() - 24 * HOUR)),
    };
  }
  return ctx.dayCache.sums;
}

/**
 * Offline, recovered and hashrate-drop alerts; each worker's alert and new state commit together.
 * Answers how many alerts were raised and which workers are now offline (their next share matters).
 */
export async function checkWorkers(ctx: AlertContext): Promise<{ raised: number; offline: number[] }> {
  const now = ctx.now();
  const rows = await listWorkersForAlerts(ctx.db, {
    activeSince: new Date(now.getTime() - ctx.settings.activeWindowHours * HOUR),
    recentSince: new Date(now.getTime() - 600_000),
  });
  const day = await daySums(ctx, now);
  let raised = 0;
  const offline: number[] = [];
  for (const row of rows) {
    const transition = observeWorker(observation(row, day.get(row.workerId), now), now, ctx.settings);
    if (transition.state.status === 'offline') offline.push(row.workerId);
    if (!transition.changed) continue;
    const added = await ctx.db.transaction(async (tx) => {
      const alertId = transition.alert ? await insertRaised(tx, row, transition.alert, ctx) : null;
      await saveWorkerAlertState(tx, { ...transition.state, offlineAlertId: alertId });
      return alertId !== null;
    });
    if (added) raised += 1;
  }
  return { raised, offline };
}

function insertRaised(
  db: Parameters<typeof insertAlert>[0],
  row: WorkerAlertRow,
  alert: RaisedAlert,
  ctx: AlertContext,
) {
  return insertAlert(db, { userId: row.userId, workerId: row.workerId, ...alert, ...delivery(row, ctx) });
}

/** The blocks one user hears about in one batching period of one coin, oldest first. */
interface BlockBatch {
  periodStart: number;
  rows: BlockAlertRow[];
}

function batchBlocks(rows: readonly BlockAlertRow[], periodMs: number): BlockBatch[] {
  const batches = new Map<string, BlockBatch>();
  for (const row of [...rows].sort(
    (a, b) => a.foundAt.getTime() - b.foundAt.getTime() || a.blockId - b.blockId,
  )) {
    const periodStart = periodMs > 0 ? Math.floor(row.foundAt.getTime() / periodMs) * periodMs : row.blockId;
    const key = `${row.userId}:${row.coin}:${periodStart}`;
    const batch = batches.get(key) ?? { periodStart, rows: [] };
    batch.rows.push(row);
    batches.set(key, batch);
  }
  return [...batches.values()];
}

/**
 * Block-found alerts, batched per `blockBatchMinutes`: the first block of a period is told at once;
 * when the period has closed, the rest of its blocks are told in one alert with their count.
 */
export async function checkBlocks(ctx: AlertContext): Promise<number> {
  const now = ctx.now().getTime();
  const periodMs = ctx.settings.blockBatchMinutes * 60_000;
  // From the start of the period the lookback falls in, so that no batch is counted in part.
  const lookback = now - ctx.settings.blockLookbackHours * HOUR;
  const since = new Date(periodMs > 0 ? Math.floor(lookback / periodMs) * periodMs : lookback);
  let raised = 0;
  for (const { periodStart, rows } of batchBlocks(await listBlockAlerts(ctx.db, since), periodMs)) {
    const [first, ...rest] = rows;
    if (!first) continue;
    const single = await insertAlert(ctx.db, {
      userId: first.userId,
      kind: 'block-found',
      workerId: null,
      dedupeKey: `block-found:${first.coin}:${first.hash}:${first.userId}`,
      payload: {
        coin: first.coin,
        height: first.height,
        hash: first.hash,
        foundAt: first.foundAt.toISOString(),
        mine: first.mine,
      },
      ...delivery(first, ctx),
    });
    if (single !== null) raised += 1;
    const last = rest.at(-1);
    if (!last || periodStart + periodMs > now) continue;
    const heights = rest.map((row) => row.height);
    const batch = await insertAlert(ctx.db, {
      userId: first.userId,
      kind: 'block-found',
      workerId: null,
      dedupeKey: `block-found-batch:${first.coin}:${new Date(periodStart).toISOString()}:${first.userId}`,
      payload: {
        coin: first.coin,
        count: rest.length,
        fromHeight: Math.min(...heights),
        toHeight: Math.max(...heights),
        periodStart: new Date(periodStart).toISOString(),
        periodEnd: new Date(periodStart + periodMs).toISOString(),
        mine: rest.some((row) => row.mine),
      },
      ...delivery(last, ctx),
    });
    if (batch !== null) raised += 1;
  }
  return raised;
}

export async function checkPayouts(ctx: AlertContext): Promise<number> {
  const since = new Date(ctx.now().getTime() - ctx.settings.payoutLookbackHours * HOUR);
  let raised = 0;
  for (const row of await listPayoutAlerts(ctx.db, since)) {
    const id = await insertAlert(ctx.db, {
      userId: row.userId,
      kind: 'payout-sent',
      workerId: null,
      dedupeKey: `payout-sent:${row.payoutId}`,
      payload: {
        coin: row.coin,
        amount: row.amount.toString(),
        address: row.address,
        txid: row.txid,
        sentAt: row.sentAt.toISOString(),
      },
      ...delivery(row, ctx),
    });
    if (id !== null) raised += 1;
  }
  return raised;
}

/** Sends pending emails (new ones, and ones a crash or an SMTP error left behind). */
export async function deliverEmails(ctx: AlertContext): Promise<{ sent: number; failed: number }> {
  if (!ctx.mailer) return { sent: 0, failed: 0 };
  const now = ctx.now();
  const staleBefore = new Date(now.getTime() - ctx.settings.email.retryAfterSeconds * 1000);
  const rows = await claimPendingEmails(ctx.db, now, staleBefore, ctx.settings.email.batchSize);
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    if (!row.emailAlerts) {
      await markEmail(ctx.db, row.id, 'skipped');
      continue;
    }
    const email = renderEmail(row.kind, row.payload, row.language, row.timeZone);
    try {
      await ctx.mailer.send({ to: row.email, ...email, language: row.language });
      await markEmail(ctx.db, row.id, 'sent');
      sent += 1;
    } catch (error) {
      failed += 1;
      const final = row.attempts >= ctx.settings.email.maxAttempts;
      await markEmailFailed(ctx.db, row.id, (error as Error).message, final);
      ctx.logger.warn(
        { alertId: row.id, attempt: row.attempts, final, err: (error as Error).message },
        'alert email failed',
      );
    }
  }
  return { sent, failed };
}

/**
 * Pushes new in-app alerts to the user's browsers (title and body in their language; the web
 * app's service worker shows them). A browser that unsubscribed (404/410) is forgotten.
 */
export async function deliverPushes(ctx: AlertContext): Promise<number> {
  if (!ctx.push) return 0;
  let pushed = 0;
  for (const row of await claimPendingPushes(ctx.db, ctx.settings.email.batchSize)) {
    const message = JSON.stringify({
      id: row.id,
      kind: row.kind,
      ...renderAlert(row.kind, row.payload, row.language, row.timeZone),
      url: '/dashboard',
    });
    for (const subscription of await listPushSubscriptions(ctx.db, row.userId)) {
      try {
        await ctx.push.send(subscription, message);
        pushed += 1;
      } catch (error) {
        if (error instanceof PushGoneError) await deletePushSubscription(ctx.db, subscription.endpoint);
        else ctx.logger.warn({ alertId: row.id, err: (error as Error).message }, 'alert push failed');
      }
    }
  }
  return pushed;
}
