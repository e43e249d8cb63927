import { z } from 'zod';
import { changeSchema, isoTimeSchema } from './common.js';
import { ALGORITHMS, DEVICE_TYPES, POOL_COINS } from './tables.js';
import { algorithmHashrateSchema, asOfSchema, averagedSecondsSchema } from './dashboard.js';
import { enumField, textField } from './fields.js';
import { MESSAGES } from './messages.js';

/** connected: a Stratum session is authorized but no share was accepted in the last 10 minutes. */
export const WORKER_STATUSES = ['online', 'connected', 'offline'] as const;
/** Test Connection: nothing seen yet, connected and authorized, a share accepted. */
export const CONNECTION_STAGES = ['waiting', 'authorized', 'sharing'] as const;

export const workerSchema = z.object({
  /**
   * Null while the worker is connected but has no accepted share yet: a login writes nothing into
   * an account, so such a worker is listed live to its owner only, with no detail page, rename or
   * delete until its first accepted share stores it.
   */
  id: z.number().int().nullable(),
  /** Display name (a rename from the web app) or the Stratum worker name. */
  name: z.string(),
  /** "username.worker" as the miner logs in. */
  fullName: z.string(),
  coin: z.enum(POOL_COINS),
  status: z.enum(WORKER_STATUSES),
  /** H/s over the last 10 minutes (or since the worker's first share in them: `averagedSeconds`). */
  hashrate: z.number(),
  /** H/s over the last hour and the last 24 hours (or since the worker's first share in them: `averagedSeconds`). */
  hashrate1h: z.number(),
  hashrate24h: z.number(),
  averagedSeconds: averagedSecondsSchema.optional(),
  /** `rejects` in percent of `shares` + `rejects` (the counts beside it, from the same read). */
  rejectRate: z.number(),
  /**
   * The shape of the hourly hashrate over the last 24 hours, oldest first: each hour in whole percent
   * of the worker's busiest hour (0-100; the figures themselves are on the worker detail page).
   * Empty when the worker had no accepted share in the last 24 hours.
   */
  sparkline: z.array(z.number().int().min(0).max(100)),
  /** Signed percent against the previous 10 minutes. */
  change: changeSchema,
  shares: z.number().int(),
  rejects: z.number().int(),
  /**
   * The worker's newest accepted share (null before its first): its hashrate figures count shares up
   * to this moment. Not `online`: no share has arrived since.
   */
  lastSeen: isoTimeSchema.nullable(),
  type: z.enum(DEVICE_TYPES),
  algorithm: z.enum(ALGORITHMS),
});
export type Worker = z.infer<typeof workerSchema>;

/** `page`/`pageSize` are optional (default: the first 100 workers); totals always cover every worker. */
export const workerListQuerySchema = z.object({
  search: z.string({ error: MESSAGES.expectedText }).trim().max(100, MESSAGES.textTooLong).optional(),
  page: z.coerce.number({ error: MESSAGES.expectedNumber }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number({ error: MESSAGES.expectedNumber }).int().min(1).max(1000).default(100),
});
export type WorkerListQuery = z.input<typeof workerListQuerySchema>;
export const workerListSchema = z.object({
  workers: z.array(workerSchema),
  /** Per algorithm over every worker (never summed across algorithms) and the count of online workers. */
  totals: z.object({ hashrates: z.array(algorithmHashrateSchema), active: z.number().int() }),
  asOf: asOfSchema,
  /** Workers matching the search (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type WorkerList = z.infer<typeof workerListSchema>;

/**
 * A worker's name and device type. Its algorithm and coin are those of the port it mines on and
 * cannot be edited (an `algorithm` sent by an older client is dropped like any unknown key).
 */
export const updateWorkerSchema = z.object({
  name: textField(MESSAGES.nameRequired, 64).optional(),
  type: enumField(DEVICE_TYPES).optional(),
});
export type UpdateWorker = z.input<typeof updateWorkerSchema>;

export const workerNameParamsSchema = z.object({
  name: z.string().min(1, MESSAGES.workerNameRequired).max(200, MESSAGES.textTooLong),
});

export const workerConnectionSchema = z.object({
  /** A share was accepted in the last 10 minutes. */
  connected: z.boolean(),
  stage: z.enum(CONNECTION_STAGES),
  /** Since when a session of the worker is authorized (null when none is, or the API runs apart from Stratum). */
  authorizedAt: isoTimeSchema.nullable(),
  /** The worker's last accepted share (what Test Connection judges by); null before its first. */
  lastShareAt: isoTimeSchema.nullable(),
  /** Accepted shares of the worker, all time. */
  acceptedShares: z.number().int(),
});
export type WorkerConnection = z.infer<typeof workerConnectionSchema>;

/** A worker with its hashrate chart (GET /api/workers/:id). */
export const workerDetailSchema = z.object({
  worker: workerSchema,
  /** H/s per 10 minutes over the last 24 hours, oldest first; the last point is the current, partial step. */
  points: z.array(z.object({ time: isoTimeSchema, value: z.number() })),
  asOf: asOfSchema,
});
export type WorkerDetail = z.infer<typeof workerDetailSchema>;
