import { COINS, LISTED_COINS, type Algorithm } from '@manjam/protocol/coins';
import { z } from 'zod';

/** Every union of names comes from one `as const` list (ARCHITECTURE: layering rules). */
export const ALGORITHMS = [
  'sha256',
  'scrypt',
  'ethash',
  'kadena',
  'kaspa',
  'equihash',
  'octopus',
  'filecoin',
  'randomx',
] as const;
export type AlgorithmId = (typeof ALGORITHMS)[number];

/**
 * The API's id of each algorithm the protocol validates shares for: the one place the two
 * vocabularies meet. The protocol says 'sha256d' (what is hashed); the API, the web, stored
 * settings and the fee keys say 'sha256' (stable ids the web and operators already use).
 */
export const API_ALGORITHM_ID = {
  sha256d: 'sha256',
  scrypt: 'scrypt',
  randomx: 'randomx',
  kheavyhash: 'kaspa',
} as const satisfies Record<Algorithm, AlgorithmId>;

/** Coins Manjam really mines and pays (Stratum + accounting): the protocol's coin table. */
export const POOL_COINS = COINS;
export type PoolCoin = (typeof POOL_COINS)[number];

/** The coin shown where none is chosen, or the one named is not mined: the coin table's first. */
export const DEFAULT_POOL_COIN: PoolCoin = POOL_COINS[0];

export function isPoolCoin(coin: string): coin is PoolCoin {
  return (POOL_COINS as readonly string[]).includes(coin);
}

/** The coin itself when Manjam mines it, else DEFAULT_POOL_COIN (e.g. an account preferring DOGE). */
export function poolCoinOr(coin: string): PoolCoin {
  return isPoolCoin(coin) ? coin : DEFAULT_POOL_COIN;
}

/** Coins an account may prefer (the seed's registration select): the mined ones, then the listed ones. */
export const ACCOUNT_COINS = [...POOL_COINS, ...LISTED_COINS] as const;
export type AccountCoin = (typeof ACCOUNT_COINS)[number];

export const DEVICE_TYPES = ['asic', 'gpu', 'cpu'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PAYOUT_SCHEMES = ['pps-plus', 'pplns', 'solo'] as const;
export type PayoutScheme = (typeof PAYOUT_SCHEMES)[number];

/** Live (not revoked, not expired) API tokens and watcher links one account may hold at once. */
export const MAX_LIVE_API_TOKENS = 20;
export const MAX_LIVE_WATCH_LINKS = 20;

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
