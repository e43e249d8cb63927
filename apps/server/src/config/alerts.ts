import { z } from 'zod';

/**
 * Alert tuning: the `alerts` section of the process config (config/schema.ts mounts it);
 * main.ts passes `config.alerts` to startAlerts, whose own default is this schema's defaults.
 */
export const alertSettingsSchema = z
  .object({
    /** A worker with no accepted share for this long is offline. */
    offlineMinutes: z.number().positive().default(10),
    /** A worker back from an outage must keep sharing this long before the recovery notice (debounce). */
    recoveryMinutes: z.number().min(0).default(5),
    /** Alert when the last 10 minutes fall below this share of the worker's 24 h average. */
    hashrateDropPercent: z.number().min(1).max(99).default(50),
    /** The 24 h averages are recomputed this often (one grouped query), not on every pass. */
    hashrateAverageRefreshMinutes: z.number().min(0).default(15),
    /** A hashrate-drop alert needs at least this much history behind the average. */
    hashrateMinHistoryMinutes: z.number().min(10).default(60),
    /** Workers silent for longer than this are not watched (they were dealt with, or retired). */
    activeWindowHours: z.number().positive().default(24),
    blockLookbackHours: z.number().positive().default(6),
    /**
     * Block-found alerts are batched per period of this many minutes: the first block of a period is
     * told at once, the others in one alert ("11 more blocks found") when the period closes. 0 tells
     * every block on its own.
     */
    blockBatchMinutes: z.number().min(0).default(60),
    payoutLookbackHours: z.number().positive().default(48),
    /** The loop runs at least this often; pool events trigger it sooner. */
    intervalSeconds: z.number().min(1).default(60),
    /** Quiet time after a pool event before the triggered run (coalesces bursts). */
    eventDelayMs: z.number().int().min(0).default(2_000),
    /** The range a miner may choose for a worker's (or the account's) own thresholds. */
    workerThresholds: z
      .object({
        offlineMinutesMin: z.number().int().min(1).default(2),
        /** Below activeWindowHours: a worker silent longer than that is no longer watched. */
        offlineMinutesMax: z.number().int().min(1).default(720),
        dropPercentMin: z.number().int().min(1).max(99).default(10),
        dropPercentMax: z.number().int().min(1).max(99).default(95),
      })
      .prefault({}),
    /**
     * Webhook delivery (services/alerts/webhook-*.ts). The URL must be https and every address its
     * host resolves to public; `allowLoopbackHttp` (env MANJAM_ALERTS_WEBHOOK_ALLOW_LOOPBACK_HTTP=1, off by
     * default, for tests and dev) additionally accepts http://127.0.0.1:PORT and http://[::1]:PORT
     * written as literals, and nothing else private.
     */
    webhook: z
      .object({
        timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
        maxResponseBytes: z.number().int().min(0).max(1_048_576).default(16_384),
        /** Attempts before a delivery is given up (failed, shown to the owner). */
        maxAttempts: z.number().int().min(1).max(20).default(6),
        /** The first retry waits this long; each next one twice as long. */
        backoffSeconds: z.number().min(0).default(30),
        batchSize: z.number().int().min(1).max(500).default(50),
        /** Posts in flight at once in one pass (a hanging receiver holds one of them). */
        concurrency: z.number().int().min(1).max(64).default(8),
        allowLoopbackHttp: z.boolean().default(false),
      })
      .prefault({}),
    email: z
      .object({
        maxAttempts: z.number().int().min(1).default(5),
        /** A pending email claimed this long ago without success is retried. */
        retryAfterSeconds: z.number().min(1).default(300),
        batchSize: z.number().int().min(1).max(500).default(50),
      })
      .prefault({}),
  })
  .refine((s) => s.workerThresholds.offlineMinutesMax < s.activeWindowHours * 60, {
    path: ['workerThresholds', 'offlineMinutesMax'],
    message: 'must be below activeWindowHours (in minutes): longer-silent workers are not watched',
  });
export type AlertSettings = z.infer<typeof alertSettingsSchema>;
export type AlertSettingsInput = z.input<typeof alertSettingsSchema>;
