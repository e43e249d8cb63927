import { z } from 'zod';
import { isoTimeSchema } from './common.js';
import { ALGORITHMS, DEVICE_TYPES } from './tables.js';
import { enumField, textField } from './fields.js';
import { MESSAGES } from './messages.js';

export const MINER_STATUSES = ['online', 'connected', 'offline', 'warning'] as const;
export const MINER_TYPE_FILTERS = ['all', ...DEVICE_TYPES] as const;

/** A worker (one login name on one coin) as the miners list names it. */
export const minerWorkerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  coin: z.string(),
  online: z.boolean(),
});
export type MinerWorker = z.infer<typeof minerWorkerSchema>;

export const minerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  algorithm: z.enum(ALGORITHMS),
  workerName: z.string(),
  status: z.enum(MINER_STATUSES),
  hashrate: z.number(),
  workers: z.number().int(),
  /** The workers that mine for this miner: its worker name on a port of its algorithm. */
  linked: z.array(minerWorkerSchema),
  lastSeen: isoTimeSchema.nullable(),
});
export type Miner = z.infer<typeof minerSchema>;

/** A live worker no declared miner claims (offered for declaring, prefilled from it). */
export const undeclaredWorkerSchema = minerWorkerSchema.extend({
  algorithm: z.enum(ALGORITHMS),
  type: z.enum(DEVICE_TYPES),
  /** H/s over the last 10 minutes. */
  hashrate: z.number(),
  lastSeen: isoTimeSchema.nullable(),
});
export type UndeclaredWorker = z.infer<typeof undeclaredWorkerSchema>;

export const minerListQuerySchema = z.object({
  type: z.enum(MINER_TYPE_FILTERS, { error: MESSAGES.invalidValue }).default('all'),
});
export const minerListSchema = z.object({
  miners: z.array(minerSchema),
  /** The account's online workers that no declared miner claims (of the chosen type). */
  undeclared: z.array(undeclaredWorkerSchema),
});
export type MinerList = z.infer<typeof minerListSchema>;

/** A worker name as miners type it after the dot in "username.worker". */
export const workerNameField = textField(MESSAGES.workerNameRequired, 64).regex(
  /^[\p{L}\p{N}._-]+$/u,
  MESSAGES.invalidValue,
);

export const createMinerSchema = z.object({
  name: textField(MESSAGES.minerNameRequired, 80),
  type: enumField(DEVICE_TYPES),
  algorithm: enumField(ALGORITHMS),
  workerName: workerNameField,
});
export type CreateMiner = z.input<typeof createMinerSchema>;

export const updateMinerSchema = z.object({
  name: textField(MESSAGES.minerNameRequired, 80).optional(),
  type: enumField(DEVICE_TYPES).optional(),
  algorithm: enumField(ALGORITHMS).optional(),
  workerName: workerNameField.optional(),
});
export type UpdateMiner = z.input<typeof updateMinerSchema>;
