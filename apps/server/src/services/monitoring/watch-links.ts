import {
  MAX_LIVE_WATCH_LINKS,
  POOL_COINS,
  WATCH_PAGES,
  type CreateWatchLink,
  type PoolCoin,
  type WatchDashboard,
  type WatchLink,
  type WatchPage,
  type WatchPayoutPage,
  type WatchView,
  type WatchWorkers,
} from '@manjam/contract';
import type { Database } from '../../db/index.js';
import type { UserRow } from '../../db/repositories/users.js';
import { UsersRepository } from '../../db/repositories/users.js';
import { WatchLinksRepository, type WatchLinkRow } from '../../db/repositories/watch-links.js';
import type { AuthService } from '../auth/auth-service.js';
import type { SecretBox } from '../auth/secret-box.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { notFound, ServiceError } from '../errors.js';
import type { RevenueService } from '../stats/revenue-service.js';
import type { WorkersService } from '../workers/workers-service.js';
import { expiryOf, isoOrNull } from './expiry.js';
import { withinLiveCap } from './live-cap.js';

export interface WatchLinksDeps {
  db: Database;
  auth: AuthService;
  box: SecretBox;
  workers: WorkersService;
  revenue: RevenueService;
  now: () => number;
}

/** Workers a watcher page lists at most (the account's first page of the workers list). */
const WATCH_WORKERS_MAX = 1_000;
/** `last_viewed_at` is written at most this often per link. */
const TOUCH_EVERY_MS = 60_000;

const linkGone = () => notFound('watchLinkNotFound', 'watch-link-not-found');
const keep = <T extends string>(values: readonly string[], allowed: readonly T[]): T[] =>
  allowed.filter((value) => values.includes(value));

/** A payout address (or txid) as a watcher sees it: its first 6 and last 4 characters. */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * Watcher links: a public read-only page of chosen coins and pages of one account. What a link
 * never shows: the email, the username (workers appear by worker name, not `username.worker`),
 * settings, row ids, or a payout address or txid in full (shortAddress). A revoked, expired or unknown
 * link answers 404 alike. Creating one needs the password (and TOTP when 2FA is on): it publishes
 * the account's figures; revoking needs only the session.
 */
export class WatchLinksService {
  private readonly links: WatchLinksRepository;
  private readonly users: UsersRepository;
  private readonly touched = new Map<number, number>();

  constructor(private readonly deps: WatchLinksDeps) {
    this.links = new WatchLinksRepository(deps.db);
    this.users = new UsersRepository(deps.db);
  }

  async create(user: UserRow, request: CreateWatchLink & { password: string }): Promise<WatchLink> {
    await this.deps.auth.confirmSensitiveChange(user, request.password, request.totp);
    const { token, hash } = newToken();
    const now = this.deps.now();
    const row = await withinLiveCap(this.deps.db, user.id, {
      cap: MAX_LIVE_WATCH_LINKS,
      refusal: () => new ServiceError(409, 'watch-link-limit', 'watchLinkLimit'),
      countLive: (tx) => new WatchLinksRepository(tx).countLive(user.id, new Date(now)),
      create: (tx) =>
        new WatchLinksRepository(tx).create({
          userId: user.id,
          label: request.label,
          tokenHash: hash,
          tokenSealed: this.deps.box.encrypt(token),
          coins: keep(request.coins, POOL_COINS),
          pages: keep(request.pages, WATCH_PAGES),
          createdAt: new Date(now),
          expiresAt: expiryOf(now, request.expiresInDays ?? null),
        }),
    });
    return this.toLink(row);
  }

  async list(userId: number): Promise<{ links: WatchLink[] }> {
    return { links: (await this.links.list(userId)).map((row) => this.toLink(row)) };
  }

  async revoke(userId: number, id: number): Promise<void> {
    if (!(await this.links.revoke(userId, id, new Date(this.deps.now())))) throw linkGone();
  }

  async view(token: string): Promise<WatchView> {
    const link = await this.open(token);
    return {
      label: link.label,
      coins: coinsOf(link),
      pages: keep(link.pages, WATCH_PAGES),
      expiresAt: isoOrNull(link.expiresAt),
    };
  }

  async dashboard(token: string): Promise<WatchDashboard> {
    const link = await this.open(token, 'dashboard');
    const coins = coinsOf(link);
    const [snapshot, summary] = await Promise.all([
      this.deps.workers.snapshot(link.userId),
      this.deps.revenue.summary(link.userId),
    ]);
    return {
      hashrates: snapshot.hashrates.filter((h) => coins.includes(h.coin)),
      coins: summary.coins.filter((c) => coins.includes(c.coin)),
      asOf: new Date(snapshot.at).toISOString(),
    };
  }

  async workers(token: string): Promise<WatchWorkers> {
    const link = await this.open(token, 'workers');
    const coins = coinsOf(link);
    const user = await this.users.findById(link.userId);
    if (!user) throw linkGone();
    const page = await this.deps.workers.list(user.id, user.username, undefined, 1, WATCH_WORKERS_MAX);
    return {
      workers: page.workers
        .filter((w) => coins.includes(w.coin))
        .map(({ id: _id, fullName: _fullName, ...shown }) => shown),
      asOf: page.asOf,
    };
  }

  /** One coin's payouts (the link's first coin unless `coin` names another of its coins). */
  async payouts(
    token: string,
    query: { page: number; pageSize: number; coin?: string | undefined },
  ): Promise<WatchPayoutPage> {
    const link = await this.open(token, 'payouts');
    const coins = coinsOf(link);
    const coin = query.coin ?? coins[0];
    if (!coin || !coins.some((c) => c === coin))
      return { items: [], page: query.page, pageSize: query.pageSize, total: 0 };
    const page = await this.deps.revenue.payouts(link.userId, {
      page: query.page,
      pageSize: query.pageSize,
      coin,
    });
    return {
      ...page,
      items: page.items.map(({ id: _id, ...p }) => ({
        ...p,
        address: shortAddress(p.address),
        txId: p.txId === null ? null : shortAddress(p.txId),
      })),
    };
  }

  /** The live link of `token` that shows `page` (when asked), else 404. */
  private async open(token: string, page?: WatchPage): Promise<WatchLinkRow> {
    const now = this.deps.now();
    const link = token.length <= 100 ? await this.links.findLive(hashToken(token), new Date(now)) : undefined;
    if (!link || (page && !link.pages.includes(page))) throw linkGone();
    const last = this.touched.get(link.id) ?? link.lastViewedAt?.getTime() ?? 0;
    if (now - last >= TOUCH_EVERY_MS) {
      this.touched.set(link.id, now);
      if (this.touched.size > 100_000) this.touched.clear();
      await this.links.touch(link.id, new Date(now));
    }
    return link;
  }

  private toLink(row: WatchLinkRow): WatchLink {
    return {
      id: row.id,
      label: row.label,
      token: this.deps.box.decrypt(row.tokenSealed),
      coins: coinsOf(row),
      pages: keep(row.pages, WATCH_PAGES),
      createdAt: row.createdAt.toISOString(),
      expiresAt: isoOrNull(row.expiresAt),
      lastViewedAt: isoOrNull(row.lastViewedAt),
      revokedAt: isoOrNull(row.revokedAt),
    };
  }
}

const coinsOf = (row: WatchLinkRow): PoolCoin[] => keep(row.coins, POOL_COINS);
