import { z } from 'zod';

export const ERROR_CODES = [
  'validation-failed',
  'invalid-json',
  /** A control character (NUL, ...) in the path, query or a text field of the body. */
  'control-character',
  'payload-too-large',
  'unsupported-media-type',
  'unauthorized',
  /** The session ended by Auto Logout (idle past its limit): the login page says so. */
  'session-idle',
  'forbidden',
  'not-found',
  'route-not-found',
  'rate-limited',
  'too-many-attempts',
  'confirmation-invalid',
  /** Something that needs email (alerts, a password reset) asked of a pool with no SMTP set. */
  'email-not-configured',
  'reset-link-invalid',
  'invalid-credentials',
  'totp-required',
  'totp-invalid',
  'totp-not-set-up',
  'totp-already-enabled',
  'username-taken',
  'email-taken',
  'wrong-password',
  'miner-not-found',
  'worker-not-found',
  'rig-token-missing',
  'rig-unavailable',
  'payout-run-not-held',
  'block-not-returned',
  'block-already-recredited',
  'account-not-found',
  'read-only-token',
  'api-token-not-found',
  'watch-link-not-found',
  'api-token-limit',
  'watch-link-limit',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Money: a decimal string of integer base units (satoshis, litoshis, XMR atomic units). */
export const moneySchema = z.string().regex(/^-?\d+$/);
/** ISO-8601 timestamp. */
export const isoTimeSchema = z.string();
/** A signed percent such as '+12.5%', '-3.0%' or '0.0%'; 'new' when there is no previous period to compare with. */
export const changeSchema = z.string().regex(/^(([+-]\d+(\.\d)?|0\.0)%|new)$/);

/** The largest id of a row with an INTEGER key (miners, workers, ...): PostgreSQL's `integer`. */
export const MAX_ROW_ID = 2_147_483_647;
/**
 * A row id in a path. An id past MAX_ROW_ID names no row: it fails here with `too_big`, which the
 * server answers as the route's not-found (404), never by sending it to the database.
 */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(MAX_ROW_ID) });
export type IdParams = z.infer<typeof idParamsSchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  });
}

export const emptySchema = z.object({});
