import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  MAX_LIVE_API_TOKENS,
  type ApiToken,
  type CreateApiToken,
  type CreatedApiToken,
} from '@manjam/contract';
import type { Database } from '../../db/index.js';
import { ApiTokensRepository, type ApiTokenRow } from '../../db/repositories/api-tokens.js';
import type { UserRow } from '../../db/repositories/users.js';
import { SlidingWindowLimiter } from '../assistant/rate-limit.js';
import type { AuthService } from '../auth/auth-service.js';
import { hashToken } from '../auth/tokens.js';
import { notFound, ServiceError } from '../errors.js';
import { withinLiveCap } from './live-cap.js';
import { expiryOf, isoOrNull } from './expiry.js';

/** Characters of a token kept to tell it apart in the list: the prefix and 6 of the secret. */
const SHOWN_CHARS = API_TOKEN_PREFIX.length + 6;
/** `last_used_at` is written at most this often per token (not on every request). */
const TOUCH_EVERY_MS = 60_000;

export interface ApiTokensDeps {
  db: Database;
  auth: AuthService;
  now: () => number;
  /** Requests per minute one token may make (config http.apiTokens.requestsPerMinute). */
  requestsPerMinute: number;
}

export const isApiToken = (token: string): boolean => token.startsWith(API_TOKEN_PREFIX);

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  expiresAt: isoOrNull(row.expiresAt),
  lastUsedAt: isoOrNull(row.lastUsedAt),
  revokedAt: isoOrNull(row.revokedAt),
});

/**
 * Read-only API tokens: `mj_ro_` + 32 random bytes (base64url), shown once; only the sha256 is
 * stored. Creating one needs the password (and the TOTP code when 2FA is on), like every other
 * change that hands out access to the account (a stolen session alone cannot mint a credential
 * that outlives it); revoking needs only the session (it takes access away).
 */
export class ApiTokensService {
  private readonly tokens: ApiTokensRepository;
  private readonly limiter: SlidingWindowLimiter;
  private readonly touched = new Map<number, number>();

  constructor(private readonly deps: ApiTokensDeps) {
    this.tokens = new ApiTokensRepository(deps.db);
    this.limiter = new SlidingWindowLimiter(deps.requestsPerMinute, 60_000);
  }

  async create(user: UserRow, request: CreateApiToken & { password: string }): Promise<CreatedApiToken> {
    await this.deps.auth.confirmSensitiveChange(user, request.password, request.totp);
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = this.deps.now();
    const row = await withinLiveCap(this.deps.db, user.id, {
      cap: MAX_LIVE_API_TOKENS,
      refusal: () => new ServiceError(409, 'api-token-limit', 'apiTokenLimit'),
      countLive: (tx) => new ApiTokensRepository(tx).countLive(user.id, new Date(now)),
      create: (tx) =>
        new ApiTokensRepository(tx).create({
          userId: user.id,
          name: request.name,
          prefix: token.slice(0, SHOWN_CHARS),
          tokenHash: hashToken(token),
          createdAt: new Date(now),
          expiresAt: expiryOf(now, request.expiresInDays ?? null),
        }),
    });
    return { ...toApiToken(row), token };
  }

  async list(userId: number): Promise<{ tokens: ApiToken[] }> {
    return { tokens: (await this.tokens.list(userId)).map(toApiToken) };
  }

  async revoke(userId: number, id: number): Promise<void> {
    if (!(await this.tokens.revoke(userId, id, new Date(this.deps.now()))))
      throw notFound('apiTokenNotFound', 'api-token-not-found');
  }

  /**
   * The account a live token reads, counted against its per-minute budget. The budget is checked
   * first, by the token's hash, so a token past it costs no database read: 429 with Retry-After
   * (seconds), even once revoked. Within it, an unknown, revoked or expired token answers 401.
   */
  async authenticate(token: string): Promise<UserRow> {
    const now = this.deps.now();
    if (token.length > 100) throw new ServiceError(401, 'unauthorized', 'unauthorized');
    const tokenHash = hashToken(token);
    const verdict = this.limiter.hit(tokenHash, now);
    if (!verdict.allowed)
      throw new ServiceError(429, 'rate-limited', 'rateLimited', undefined, {
        'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))),
      });
    const found = await this.tokens.findLive(tokenHash, new Date(now));
    if (!found) throw new ServiceError(401, 'unauthorized', 'unauthorized');
    const { row, user } = found;
    const last = this.touched.get(row.id) ?? row.lastUsedAt?.getTime() ?? 0;
    if (now - last >= TOUCH_EVERY_MS) {
      this.touched.set(row.id, now);
      if (this.touched.size > 100_000) this.touched.clear();
      await this.tokens.touch(row.id, new Date(now));
    }
    return user;
  }
}
