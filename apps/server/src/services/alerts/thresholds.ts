import { MESSAGES } from '@manjam/contract';
import type { AlertSettings } from '../../config/alerts.js';
import {
  findAccountThresholds,
  findWorkerThresholds,
  saveAccountThresholds,
  saveWorkerThresholds,
  type Thresholds,
} from '../../db/repositories/alert-thresholds.js';
import type { Queryable } from '../../db/types.js';
import type { SecretBox } from '../auth/secret-box.js';
import { notFound, validationError } from '../errors.js';
import { getWebhook, type WebhookView } from './webhook.js';

// Per-worker alert thresholds. A worker's own value wins, else the account default,
// else the pool's config (alerts.offlineMinutes, alerts.hashrateDropPercent); a miner chooses
// within alerts.workerThresholds. The detector (detect.ts) reads the resolved value per worker.

export interface ThresholdBounds {
  offlineMinutesMin: number;
  offlineMinutesMax: number;
  dropPercentMin: number;
  dropPercentMax: number;
  poolOfflineMinutes: number;
  poolDropPercent: number;
}

type Settings = Pick<AlertSettings, 'workerThresholds' | 'offlineMinutes' | 'hashrateDropPercent'>;

export function thresholdBounds(settings: Settings): ThresholdBounds {
  return {
    ...settings.workerThresholds,
    poolOfflineMinutes: settings.offlineMinutes,
    poolDropPercent: settings.hashrateDropPercent,
  };
}

/** Throws a validation error naming each value outside its range. */
function checkRange(values: Thresholds, bounds: ThresholdBounds): void {
  const fields: Record<string, string> = {};
  const { offlineMinutes, dropPercent } = values;
  if (
    offlineMinutes !== null &&
    (offlineMinutes < bounds.offlineMinutesMin || offlineMinutes > bounds.offlineMinutesMax)
  )
    fields.offlineMinutes = MESSAGES.alertThresholdOutOfRange;
  if (dropPercent !== null && (dropPercent < bounds.dropPercentMin || dropPercent > bounds.dropPercentMax))
    fields.dropPercent = MESSAGES.alertThresholdOutOfRange;
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

export interface AccountAlertsView extends Thresholds {
  bounds: ThresholdBounds;
  webhook: WebhookView;
}

/** The database, and the box that opens the account's sealed webhook URL. */
interface AccountContext {
  db: Queryable;
  box: SecretBox;
}

export async function getAccountAlerts(
  ctx: AccountContext,
  settings: Settings,
  userId: number,
): Promise<AccountAlertsView> {
  return {
    ...(await findAccountThresholds(ctx.db, userId)),
    bounds: thresholdBounds(settings),
    webhook: await getWebhook(ctx, userId),
  };
}

export async function setAccountThresholds(
  ctx: AccountContext,
  settings: Settings,
  userId: number,
  values: Thresholds,
): Promise<AccountAlertsView> {
  checkRange(values, thresholdBounds(settings));
  await saveAccountThresholds(ctx.db, userId, values);
  return getAccountAlerts(ctx, settings, userId);
}

export interface WorkerAlertsView extends Thresholds {
  off: boolean;
  effectiveOfflineMinutes: number;
  effectiveDropPercent: number;
  bounds: ThresholdBounds;
}

export async function getWorkerAlerts(
  db: Queryable,
  settings: Settings,
  userId: number,
  workerId: number,
): Promise<WorkerAlertsView> {
  const row = await findWorkerThresholds(db, userId, workerId);
  if (!row) throw notFound('workerNotFound', 'worker-not-found');
  return {
    off: row.off,
    offlineMinutes: row.offlineMinutes,
    dropPercent: row.dropPercent,
    effectiveOfflineMinutes: row.offlineMinutes ?? row.account.offlineMinutes ?? settings.offlineMinutes,
    effectiveDropPercent: row.dropPercent ?? row.account.dropPercent ?? settings.hashrateDropPercent,
    bounds: thresholdBounds(settings),
  };
}

export async function setWorkerAlerts(
  db: Queryable,
  settings: Settings,
  userId: number,
  workerId: number,
  values: Thresholds & { off: boolean },
): Promise<WorkerAlertsView> {
  checkRange(values, thresholdBounds(settings));
  if (!(await saveWorkerThresholds(db, userId, workerId, values)))
    throw notFound('workerNotFound', 'worker-not-found');
  return getWorkerAlerts(db, settings, userId, workerId);
}
