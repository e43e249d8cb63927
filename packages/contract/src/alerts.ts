import { z } from 'zod';
import { isoTimeSchema } from './common.js';
import { booleanField } from './fields.js';
import { MESSAGES } from './messages.js';

// Alert settings a miner chooses: thresholds per worker and for the account, the
// webhook, and 2FA recovery codes.

/** The range a miner may choose (config alerts.workerThresholds) and the pool's defaults. */
export const alertThresholdBoundsSchema = z.object({
  offlineMinutesMin: z.number().int(),
  offlineMinutesMax: z.number().int(),
  dropPercentMin: z.number().int(),
  dropPercentMax: z.number().int(),
  poolOfflineMinutes: z.number(),
  poolDropPercent: z.number(),
});
export type AlertThresholdBounds = z.infer<typeof alertThresholdBoundsSchema>;

/** A chosen value, or null to inherit (worker -> account default -> pool). */
const thresholdField = z
  .number({ error: MESSAGES.alertThresholdOutOfRange })
  .int(MESSAGES.alertThresholdOutOfRange)
  .nullable();

export const alertThresholdsRequestSchema = z.object({
  offlineMinutes: thresholdField,
  dropPercent: thresholdField,
});
export type AlertThresholdsRequest = z.input<typeof alertThresholdsRequestSchema>;

export const workerAlertsRequestSchema = alertThresholdsRequestSchema.extend({
  /** No offline, recovered or hashrate-drop alerts for this worker. */
  off: booleanField(),
});
export type WorkerAlertsRequest = z.input<typeof workerAlertsRequestSchema>;

export const webhookSchema = z.object({
  url: z.string().nullable(),
  lastDeliveredAt: isoTimeSchema.nullable(),
  /** The last failed delivery or test, shown to the owner. */
  lastError: z.string().nullable(),
  lastErrorAt: isoTimeSchema.nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const accountAlertsSchema = z.object({
  offlineMinutes: z.number().int().nullable(),
  dropPercent: z.number().int().nullable(),
  bounds: alertThresholdBoundsSchema,
  webhook: webhookSchema,
});
export type AccountAlerts = z.infer<typeof accountAlertsSchema>;

export const workerAlertsSchema = z.object({
  off: z.boolean(),
  /** The worker's own values (null: it uses the account default). */
  offlineMinutes: z.number().int().nullable(),
  dropPercent: z.number().int().nullable(),
  /** What the detector uses for this worker now. */
  effectiveOfflineMinutes: z.number(),
  effectiveDropPercent: z.number(),
  bounds: alertThresholdBoundsSchema,
});
export type WorkerAlerts = z.infer<typeof workerAlertsSchema>;

export const webhookRequestSchema = z.object({
  /** null removes the webhook. */
  url: z.string({ error: MESSAGES.webhookRefused }).trim().max(2_000, MESSAGES.webhookRefused).nullable(),
});
export type WebhookRequest = z.input<typeof webhookRequestSchema>;

export const webhookTestSchema = z.object({
  delivered: z.boolean(),
  error: z.string().nullable(),
  webhook: webhookSchema,
});
export type WebhookTest = z.infer<typeof webhookTestSchema>;

/** Shown once, when 2FA is turned on or the codes are regenerated. */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
export const recoveryCodesLeftSchema = z.object({ left: z.number().int() });
export type RecoveryCodesLeft = z.infer<typeof recoveryCodesLeftSchema>;
