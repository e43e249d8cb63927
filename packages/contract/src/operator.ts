// The operator console: /api/operator/* answers only a signed-in operator whose session
// passed password + TOTP. Everyone else gets 404 `not-found` (the console is not advertised); an
// operator without such a session gets 403 `totp-required`.
import { z } from 'zod';
import { isoTimeSchema, moneySchema, pagedSchema, pageQuerySchema } from './common.js';
import { ALGORITHMS, BAN_SCOPES, OPERATOR_ALERT_KINDS } from './tables.js';
import { emailSchema } from './auth.js';
import { MESSAGES } from './messages.js';
import { healthSchema } from './pool.js';
import { PAYOUT_FAILURES } from './revenue.js';

/** Where the runbook says what to do about a kind: a section of docs/OPERATIONS.md. */
export const runbookSchema = z.object({ doc: z.string(), anchor: z.string() });
export type Runbook = z.infer<typeof runbookSchema>;

export const operatorHealthSchema = z.object({
  /** When these figures were read (the health report and accounting progress, read together). */
  asOf: isoTimeSchema,
  status: healthSchema.shape.status,
  database: healthSchema.shape.database,
  /** Each chain: height, how it hears of new tips, and `downSince` while no node has answered past its limit. */
  chains: healthSchema.shape.chains,
  openAlerts: z.number().int(),
  /** Accepted shares not yet in the database or the core's share log; null when Stratum runs in another process. */
  shareLogBacklog: z.number().int().nullable(),
  /** Per coin: how far accounting has credited shares (the money screens' "credited up to"). */
  accounting: z.array(
    z.object({ coin: z.string(), creditedThrough: isoTimeSchema, behindSeconds: z.number().int() }),
  ),
});
export type OperatorHealth = z.infer<typeof operatorHealthSchema>;

export const operatorAlertSchema = z.object({
  id: z.string(),
  key: z.string(),
  kind: z.enum(OPERATOR_ALERT_KINDS),
  coin: z.string().nullable(),
  message: z.string(),
  raisedAt: isoTimeSchema,
  /** Null while open. */
  clearedAt: isoTimeSchema.nullable(),
  runbook: runbookSchema,
  /** The block a `block-returned` alert is about (its payees can be credited back), else null. */
  blockId: z.string().nullable(),
});
export type OperatorAlert = z.infer<typeof operatorAlertSchema>;

export const operatorAlertsSchema = z.object({
  open: z.array(operatorAlertSchema),
  /** Cleared alerts, newest first, paged by the query's page/pageSize. */
  past: pagedSchema(operatorAlertSchema),
});
export type OperatorAlerts = z.infer<typeof operatorAlertsSchema>;

export const operatorPageQuerySchema = pageQuerySchema;

/** A path id of a row with a 64-bit id (payout runs, alerts): digits, at most 18 of them. */
export const bigIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d*$/, MESSAGES.notFound)
    .max(18),
});

/** A path id of a found block (a 32-bit id): digits, at most 2^31 - 1. */
export const blockIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d*$/, MESSAGES.notFound)
    .max(10)
    .refine((id) => Number(id) <= 2 ** 31 - 1, MESSAGES.notFound),
});

export const PAYOUT_RUN_STATES = ['intent', 'sent', 'recorded', 'failed'] as const;
export type PayoutRunState = (typeof PAYOUT_RUN_STATES)[number];

export const operatorPayoutRunSchema = z.object({
  id: z.string(),
  coin: z.string(),
  status: z.enum(PAYOUT_RUN_STATES),
  /** Settled by hand: an `intent` run (waiting to be sent or held by reconcile), or a `sent` run whose transaction is missing (payout-missing). */
  settleable: z.boolean(),
  txid: z.string().nullable(),
  payouts: z.number().int(),
  /** Base units of `coin`. */
  total: moneySchema,
  failure: z.enum(PAYOUT_FAILURES).nullable(),
  /** The operator's detail of a failure (never shown to miners). */
  error: z.string().nullable(),
  createdAt: isoTimeSchema,
});
export type OperatorPayoutRun = z.infer<typeof operatorPayoutRunSchema>;
export const operatorPayoutRunPageSchema = pagedSchema(operatorPayoutRunSchema);
export type OperatorPayoutRunPage = z.infer<typeof operatorPayoutRunPageSchema>;

export const settleRunRequestSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('sent'),
    txid: z
      .string({ error: MESSAGES.txidInvalid })
      .trim()
      .toLowerCase()
      .regex(/^[0-9a-f]{64}$/, MESSAGES.txidInvalid),
  }),
  z.object({ outcome: z.literal('failed') }),
]);
export type SettleRunRequest = z.input<typeof settleRunRequestSchema>;

export const settledRunSchema = z.object({
  id: z.string(),
  coin: z.string(),
  status: z.enum(['sent', 'failed']),
  payouts: z.number().int(),
  total: moneySchema,
});
export type SettledRun = z.infer<typeof settledRunSchema>;

/** A returned block whose reversed credits were written back (`manjam block-recredit`). */
export const recreditedBlockSchema = z.object({
  id: z.string(),
  coin: z.string(),
  height: z.number().int(),
  hash: z.string(),
  /** Payees credited back. */
  payees: z.number().int(),
  /** Base units of `coin`: exactly what the block's orphaning reversed. */
  total: moneySchema,
});
export type RecreditedBlock = z.infer<typeof recreditedBlockSchema>;

export const operatorBansSchema = z.object({
  /** False when Stratum runs in another process than this API (bans live in the Stratum process). */
  available: z.boolean(),
  items: z.array(
    z.object({
      scope: z.enum(BAN_SCOPES),
      ip: z.string(),
      /** The login refused on that address (scope `connection`), null for a whole-address ban. */
      login: z.string().nullable(),
      until: isoTimeSchema,
    }),
  ),
});
export type OperatorBans = z.infer<typeof operatorBansSchema>;

export const liftBanRequestSchema = z.object({
  ip: z.string({ error: MESSAGES.ipInvalid }).trim().min(1, MESSAGES.ipInvalid).max(64, MESSAGES.ipInvalid),
});
export type LiftBanRequest = z.input<typeof liftBanRequestSchema>;
export const liftBanResponseSchema = z.object({ lifted: z.number().int() });

/** What an operator can do from the console; each lands in the audit log. */
export const OPERATOR_ACTIONS = [
  'close-alert',
  'settle-payout-run',
  'recredit-block',
  'lift-ban',
  'grant-operator',
  'revoke-operator',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

export const operatorActionPageSchema = pagedSchema(
  z.object({
    id: z.string(),
    /** Who: the operator's account (email kept as it was then) and the address the request came from. */
    email: z.string(),
    ip: z.string(),
    action: z.enum(OPERATOR_ACTIONS),
    /** What it was done to: an alert key, `run <id> sent|failed`, `block <id> <coin> <height>`, a banned address. */
    target: z.string(),
    at: isoTimeSchema,
  }),
);
export type OperatorActionPage = z.infer<typeof operatorActionPageSchema>;

/** The windows the console ranks workers by: the last 10 minutes (realtime) or the last hour. */
export const TOP_WORKER_WINDOWS = ['10m', '1h'] as const;
export type TopWorkerWindow = (typeof TOP_WORKER_WINDOWS)[number];
/** How many workers the "Top workers" section lists. */
export const TOP_WORKERS_LIMIT = 50;

export const topWorkersQuerySchema = z.object({ window: z.enum(TOP_WORKER_WINDOWS).default('10m') });

export const topWorkersSchema = z.object({
  window: z.enum(TOP_WORKER_WINDOWS),
  /** The fastest workers across all accounts over `window`, fastest first (at most TOP_WORKERS_LIMIT). */
  items: z.array(
    z.object({
      workerId: z.number().int(),
      /** The account's username; null for a wallet mining without an account. */
      account: z.string().nullable(),
      /** The wallet address the worker logs in with; null when it logs in with the account name. */
      address: z.string().nullable(),
      worker: z.string(),
      coin: z.string(),
      algorithm: z.enum(ALGORITHMS),
      /** H/s over the last 10 minutes. */
      realtime: z.number(),
      /** H/s averaged over the last hour (or since its first share in it, at least 10 minutes). */
      hour: z.number(),
      lastShareAt: isoTimeSchema.nullable(),
    }),
  ),
});
export type TopWorkers = z.infer<typeof topWorkersSchema>;

/**
 * The configuration as this process runs it, with every secret replaced by `[redacted]` (passwords,
 * keys, tokens, credentials inside URLs): a JSON tree shaped like manjam.config.json.
 */
export const runningConfigSchema = z.object({ config: z.record(z.string(), z.unknown()) });
export type RunningConfig = z.infer<typeof runningConfigSchema>;

/** Give or take the operator role by the account's email: what `manjam operator grant|revoke` does. */
export const OPERATOR_ROLE_ACTIONS = ['grant', 'revoke'] as const;
export const operatorRoleRequestSchema = z.object({
  email: emailSchema,
  action: z.enum(OPERATOR_ROLE_ACTIONS),
});
export type OperatorRoleRequest = z.input<typeof operatorRoleRequestSchema>;
export const operatorRoleSchema = z.object({ email: z.string(), operator: z.boolean() });
export type OperatorRole = z.infer<typeof operatorRoleSchema>;

/**
 * Each live coin's pool wallet against what it owes (GET /api/operator/wallets). The balance is
 * accounting's last reading of the wallet (`readAt`; a failed read keeps the previous one); all
 * amounts are base units of `coin`.
 */
export const operatorWalletSchema = z.object({
  coin: z.string(),
  /** Spendable balance as last read; null while accounting has never read this coin's wallet. */
  balance: moneySchema.nullable(),
  readAt: isoTimeSchema.nullable(),
  /** Every miner's unpaid balance on this coin, summed. */
  owed: moneySchema,
  /** What the next payout run would pay: balances at or above their threshold that have a payout address. */
  nextRunAmount: moneySchema,
  nextRunPayees: z.number().int(),
  /** When the next run is due (last run + the payout interval); null: no run yet, due at the next cycle. */
  nextRunAt: isoTimeSchema.nullable(),
  /** Whether the balance pays the next run; null while the wallet has never been read. */
  covered: z.boolean().nullable(),
  /** How much the balance lacks for the next run ("0" when covered or unknown). */
  shortBy: moneySchema,
});
export type OperatorWallet = z.infer<typeof operatorWalletSchema>;
export const operatorWalletsSchema = z.object({
  asOf: isoTimeSchema,
  wallets: z.array(operatorWalletSchema),
});
export type OperatorWallets = z.infer<typeof operatorWalletsSchema>;

/**
 * Each live Stratum port (GET /api/operator/ports): its coin and algorithm (the port table's
 * name), number, dialect, the connections open on it now and what its miners send.
 */
export const operatorPortSchema = z.object({
  coin: z.string(),
  /** The port table's algorithm name ("SHA-256", "RandomX"...). */
  algorithm: z.string(),
  port: z.number().int(),
  protocol: z.enum(['v1', 'v2']),
  tls: z.boolean(),
  /** Connections open on this port now; null in a process that runs no Stratum listener (an API run apart). */
  connections: z.number().int().nullable(),
  /**
   * Whose figures `sharesPerSecond` and `hashrate` are: `port`, this port's own, counted by the
   * process that runs its listener; `coin`, its coin's as the database records them (every port of
   * the coin together), in a process that runs no Stratum listener.
   */
  scope: z.enum(['port', 'coin']),
  /** Accepted shares per second over the last minute. */
  sharesPerSecond: z.number(),
  /** Hashrate (H/s) over the last 10 minutes (a port open for less: over the time its shares have come). */
  hashrate: z.number(),
});
export type OperatorPort = z.infer<typeof operatorPortSchema>;
export const operatorPortsSchema = z.object({
  asOf: isoTimeSchema,
  ports: z.array(operatorPortSchema),
});
export type OperatorPorts = z.infer<typeof operatorPortsSchema>;
