import {
  poolCoinOr,
  type AlgorithmHashrate,
  type Worker,
  type WorkerConnection,
  type WorkerDetail,
} from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import { WorkersRepository } from '../../db/repositories/workers.js';
import { ActivityQueries, type UserWorkerRow } from '../../db/repositories/queries-activity.js';
import { notFound } from '../errors.js';
import {
  hashrateFromDifficulty,
  hashrateWindows,
  summarizeHashrate,
  type WorkerHashrate,
} from '../shared/hashrate.js';
import { algorithmId, percentChange } from '../stats/figures.js';
import { SwrCache } from '../stats/swr-cache.js';
import { connectedKey, type ConnectedWorkers } from './connected.js';
import { pendingWorkers, toPendingWorker } from './pending.js';

/** A worker is online when it had a share accepted in the last 10 minutes; hashrate uses the same window. */
export const ONLINE_WINDOW_MS = 10 * 60_000;
/**
 * The oldest a user's worker snapshot is served (from the start of its read; SwrCache refreshes it
 * behind readers after half of that, and a read past it waits for a fresh one).
 */
export const WORKER_CACHE_MS = 5_000;
/** How long a user's hourly sparklines are reused (hourly points move slowly; not a figure shown as such). */
export const SPARKLINE_CACHE_MS = 60_000;

export interface WorkerActivity {
  row: UserWorkerRow;
  figures: WorkerHashrate | undefined;
  online: boolean;
}

export interface WorkerSnapshot {
  /** When its figures were read: every figure of the snapshot comes from that one read. */
  at: number;
  workers: WorkerActivity[];
  /** Per algorithm, never summed across algorithms (shared/hashrate.ts). */
  hashrates: AlgorithmHashrate[];
  /** Each visible worker's figures, by worker id (the assistant reads them). */
  byWorker: ReadonlyMap<number, WorkerHashrate>;
  active: number;
  /** connectedKey(coin, name) of every stored worker of the user, deleted ones included. */
  stored: ReadonlySet<string>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DETAIL_STEP_MS = 600_000;

export interface WorkersDeps {
  db: Queryable;
  now: () => number;
  onError: (error: unknown) => void;
  /** Workers with a Stratum session authorized now (single-process pool); none when absent. */
  connected?: ConnectedWorkers;
}

interface PageQuery {
  search: string | undefined;
  page: number;
  pageSize: number;
}

interface UserPages {
  username: string;
  entries: Map<string, PageEntry>;
}

interface PageEntry {
  snapshot: WorkerSnapshot;
  /** The connected registry's stamp of the user when the page was built. */
  presence: number;
  query: PageQuery;
  json: Promise<string>;
  /** The page's text once built. */
  ready?: string;
}

export interface WorkerPage {
  workers: Worker[];
  totals: { hashrates: AlgorithmHashrate[]; active: number };
  total: number;
  page: number;
  pageSize: number;
  asOf: string;
}

/** Live Stratum identities of a user: status, 10-minute hashrate and its change, rename, hide. */
export class WorkersService {
  private readonly queries: ActivityQueries;
  private readonly cache: SwrCache<WorkerSnapshot>;
  /**
   * Serialized pages per user (a page is built once per snapshot, not per request; a new
   * snapshot's pages are built as soon as it is read). A request never gets an older snapshot's
   * page: the dashboard, sidebar and assistant read the same snapshot, and every screen must show
   * the same figures.
   */
  private readonly pages = new Map<number, UserPages>();
  /** Each user's sparklines, read at most every SPARKLINE_CACHE_MS (hourly points move slowly). */
  private readonly sparkCache = new Map<
    number,
    { at: number; start: number; lines: Map<number, number[]> }
  >();

  constructor(private readonly deps: WorkersDeps) {
    this.queries = new ActivityQueries(deps.db);
    this.cache = new SwrCache(WORKER_CACHE_MS, deps.now, deps.onError);
  }

  snapshot(userId: number): Promise<WorkerSnapshot> {
    return this.cache.get(String(userId), async () => {
      const snapshot = await this.load(userId);
      // Pages are built when the snapshot is, not when the next request finds it.
      queueMicrotask(() => this.rebuildPages(userId, snapshot));
      return snapshot;
    });
  }

  /** Drops the user's cached aggregates: the next read waits for fresh data. */
  forget(userId: number): void {
    this.cache.invalidate(String(userId));
    this.pages.delete(userId);
  }

  /** New shares arrived for the user: refresh in the background on the next read. */
  sharesArrived(userId: number): void {
    this.cache.markStale(String(userId));
  }

  async list(
    userId: number,
    username: string,
    search: string | undefined,
    page: number,
    pageSize: number,
    /** The snapshot to page through (a page is built from exactly the snapshot it is kept for). */
    of?: WorkerSnapshot,
  ): Promise<WorkerPage> {
    const snapshot = of ?? (await this.snapshot(userId));
    const needle = search?.trim().toLowerCase();
    const matches = (names: string[]) => !needle || names.some((n) => n.toLowerCase().includes(needle));
    const matching = snapshot.workers.filter((w) =>
      matches([w.row.name, w.row.displayName ?? '', `${username}.${w.row.name}`]),
    );
    // Connected but never stored: shown live after the stored ones, never written (pending.ts).
    const pending = pendingWorkers(this.deps.connected?.ofUser(userId) ?? [], snapshot.stored, (p) =>
      matches([p.name, `${username}.${p.name}`]),
    );
    const start = (page - 1) * pageSize;
    const shown = matching.slice(start, start + pageSize);
    const pendingStart = Math.max(0, start - matching.length);
    const shownPending = pending.slice(pendingStart, pendingStart + pageSize - shown.length);
    const sparklines = await this.sparklines(userId, shown);
    return {
      workers: [
        ...shown.map((w) =>
          toWorker(w, username, this.isConnected(userId, w.row.name), sparklines.get(w.row.id)),
        ),
        ...shownPending.map((p) => toPendingWorker(p, username)),
      ],
      totals: { hashrates: snapshot.hashrates, active: snapshot.active },
      total: matching.length + pending.length,
      page,
      pageSize,
      asOf: new Date(snapshot.at).toISOString(),
    };
  }

  /** `list` as JSON text, reused while the user's snapshot stays the same. */
  async listJson(
    userId: number,
    username: string,
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<string> {
    const snapshot = await this.snapshot(userId);
    const key = `${search ?? ''}\u0000${page}\u0000${pageSize}`;
    let user = this.pages.get(userId);
    if (!user) {
      if (this.pages.size >= 5_000) this.pages.clear();
      user = { username, entries: new Map() };
      this.pages.set(userId, user);
    }
    const hit = user.entries.get(key);
    if (hit?.snapshot === snapshot && hit.presence === this.presenceStamp(userId))
      return hit.ready ?? hit.json;
    if (!hit && user.entries.size >= 100) user.entries.clear();
    return this.buildPage(userId, user, snapshot, { search, page, pageSize }, key);
  }

  /**
   * Builds one page of `snapshot`; requests arriving meanwhile wait for the same build.
   */
  private buildPage(
    userId: number,
    user: UserPages,
    snapshot: WorkerSnapshot,
    query: PageQuery,
    key: string,
  ): Promise<string> {
    const json = this.list(userId, user.username, query.search, query.page, query.pageSize, snapshot).then(
      (p) => JSON.stringify(p),
    );
    const entry: PageEntry = { snapshot, presence: this.presenceStamp(userId), query, json };
    user.entries.set(key, entry);
    json.then(
      (text) => {
        entry.ready = text;
      },
      () => {
        // The caller (a request, or rebuildPages) reports the error; a later request builds anew.
        if (user.entries.get(key) === entry) user.entries.delete(key);
      },
    );
    return json;
  }

  /** A new snapshot: the user's pages already asked for are built now, before the next request. */
  private rebuildPages(userId: number, snapshot: WorkerSnapshot): void {
    const user = this.pages.get(userId);
    if (!user) return;
    for (const [key, entry] of user.entries) {
      if (entry.snapshot !== snapshot)
        this.buildPage(userId, user, snapshot, entry.query, key).catch(this.deps.onError);
    }
  }

  async update(
    userId: number,
    username: string,
    workerId: number,
    patch: { name?: string; type?: string },
  ): Promise<Worker> {
    const changed = await this.queries.updateWorker(userId, workerId, {
      displayName: patch.name,
      type: patch.type,
    });
    if (!changed) throw notFound('workerNotFound', 'worker-not-found');
    this.forget(userId);
    const snapshot = await this.snapshot(userId);
    const found = snapshot.workers.find((w) => w.row.id === workerId);
    if (!found) throw notFound('workerNotFound', 'worker-not-found');
    return toWorker(found, username, this.isConnected(userId, found.row.name));
  }

  /** One worker with its 10-minute hashrate over the last 24 hours (the worker detail page). */
  async detail(userId: number, username: string, workerId: number): Promise<WorkerDetail> {
    const snapshot = await this.snapshot(userId);
    const found = snapshot.workers.find((w) => w.row.id === workerId);
    if (!found) throw notFound('workerNotFound', 'worker-not-found');
    const now = this.deps.now();
    const [sparklines, points] = await Promise.all([
      this.sparklines(userId, [found]),
      this.series(userId, found.row, now, DETAIL_STEP_MS),
    ]);
    const worker = toWorker(
      found,
      username,
      this.isConnected(userId, found.row.name),
      sparklines.get(workerId),
    );
    return {
      worker,
      points: points.map((value, slot) => ({
        time: new Date(seriesStart(now, DETAIL_STEP_MS) + slot * DETAIL_STEP_MS).toISOString(),
        value,
      })),
      asOf: new Date(snapshot.at).toISOString(),
    };
  }

  /**
   * Hourly hashrate of the given workers over the last 24 hours in percent of each one's busiest
   * hour (sparklines); a worker's line is read once per SPARKLINE_CACHE_MS and hour.
   */
  private async sparklines(
    userId: number,
    workers: readonly WorkerActivity[],
  ): Promise<Map<number, number[]>> {
    const now = this.deps.now();
    const start = seriesStart(now, HOUR_MS);
    let cached = this.sparkCache.get(userId);
    if (!cached || cached.start !== start || now - cached.at >= SPARKLINE_CACHE_MS || now < cached.at) {
      if (this.sparkCache.size >= 10_000) this.sparkCache.clear();
      cached = { at: now, start, lines: new Map() };
      this.sparkCache.set(userId, cached);
    }
    const lines = cached.lines;
    const result = new Map<number, number[]>();
    const active: WorkerActivity[] = [];
    for (const w of workers) {
      if (!w.figures || w.figures.day <= 0) continue;
      const line = lines.get(w.row.id);
      if (line) result.set(w.row.id, line);
      else active.push(w);
    }
    if (active.length === 0) return result;
    const rows = await this.queries.workerSeries(
      userId,
      active.map((w) => w.row.id),
      new Date(start),
      new Date(start + DAY_MS),
      HOUR_MS / 1000,
    );
    const coins = new Map(active.map((w) => [w.row.id, w.row.coin]));
    const read = new Map<number, number[]>();
    for (const w of active) read.set(w.row.id, new Array<number>(DAY_MS / HOUR_MS).fill(0));
    for (const r of rows) {
      const line = read.get(r.workerId);
      if (!line || r.slot < 0 || r.slot >= line.length) continue;
      line[r.slot] = hashrateFromDifficulty(
        coins.get(r.workerId) ?? '',
        r.difficulty,
        slotSeconds(now, start, r.slot, HOUR_MS),
      );
    }
    for (const [id, line] of read) {
      const peak = Math.max(...line);
      const percent = line.map((v) => (peak > 0 ? Math.round((v / peak) * 100) : 0));
      result.set(id, percent);
      lines.set(id, percent);
    }
    return result;
  }

  /** H/s of one worker per `stepMs` over the last 24 hours, oldest first. */
  private async series(userId: number, row: UserWorkerRow, now: number, stepMs: number): Promise<number[]> {
    const start = seriesStart(now, stepMs);
    const rows = await this.queries.workerSeries(
      userId,
      [row.id],
      new Date(start),
      new Date(start + DAY_MS),
      stepMs / 1000,
    );
    const values = new Array<number>(DAY_MS / stepMs).fill(0);
    for (const r of rows) {
      if (r.slot >= 0 && r.slot < values.length)
        values[r.slot] = hashrateFromDifficulty(
          row.coin,
          r.difficulty,
          slotSeconds(now, start, r.slot, stepMs),
        );
    }
    return values;
  }

  async hide(userId: number, workerId: number): Promise<void> {
    if (!(await this.queries.hideWorker(userId, workerId, new Date(this.deps.now()))))
      throw notFound('workerNotFound', 'worker-not-found');
    this.forget(userId);
  }

  /** The state of the user's live sessions a page was built from (0 without a registry). */
  private presenceStamp(userId: number): number {
    return this.deps.connected?.stamp(userId) ?? 0;
  }

  /** Whether the user's worker (Stratum name, any case) has a session authorized right now. */
  isConnected(userId: number, workerName: string): boolean {
    return this.deps.connected?.connectedSince(userId, workerName) != null;
  }

  /**
   * Test Connection: how far the named worker ("worker" or "username.worker") got, judged by its
   * last accepted share — `sharing` (a share accepted in the last 10 minutes, which is also
   * `connected`), else `authorized` (a session logged in now) or `waiting`. The answer is known at
   * once: a worker with shares flowing passes on the first ask, without any fixed wait.
   */
  async connection(userId: number, username: string, name: string): Promise<WorkerConnection> {
    const prefix = `${username.toLowerCase()}.`;
    const workerName = name.toLowerCase().startsWith(prefix) ? name.slice(prefix.length) : name;
    const now = this.deps.now();
    const found = await this.queries.connection(userId, workerName);
    const sharing = found.lastShareAt !== null && now - found.lastShareAt.getTime() <= ONLINE_WINDOW_MS;
    const since = this.deps.connected?.connectedSince(userId, workerName) ?? null;
    return {
      connected: sharing,
      stage: sharing ? 'sharing' : since ? 'authorized' : 'waiting',
      authorizedAt: since?.toISOString() ?? null,
      lastShareAt: found.lastShareAt?.toISOString() ?? null,
      acceptedShares: found.accepted,
    };
  }

  private async load(userId: number): Promise<WorkerSnapshot> {
    const now = this.deps.now();
    // Every window's sums in one read, so the figures of an answer agree with one another.
    const [rows, sums, hidden] = await Promise.all([
      this.queries.userWorkers(userId),
      this.queries.workerHashrates(userId, hashrateWindows(new Date(now))),
      new WorkersRepository(this.deps.db).hiddenOfUser(userId),
    ]);
    const hashrate = summarizeHashrate(sums, new Date(now));
    let active = 0;
    const workers = rows.map((row) => {
      const online = row.lastShareAt !== null && now - row.lastShareAt.getTime() <= ONLINE_WINDOW_MS;
      if (online) active += 1;
      return { row, figures: hashrate.workers.get(row.id), online };
    });
    // Plain code-point order on precomputed keys: localeCompare over 10,000 names blocks the event loop.
    const keys = new Map(workers.map((w) => [w, (w.row.displayName ?? w.row.name).toLowerCase()]));
    workers.sort((a, b) => {
      const ka = keys.get(a) ?? '';
      const kb = keys.get(b) ?? '';
      return ka < kb ? -1 : ka > kb ? 1 : a.row.id - b.row.id;
    });
    const stored = new Set([...rows, ...hidden].map((r) => connectedKey(r.coin, r.name)));
    return { at: now, workers, hashrates: hashrate.algorithms, byWorker: hashrate.workers, active, stored };
  }
}

/** Rejected submits in percent of all submits, from the counts shown beside it. */
function rejectPercent(accepted: number, rejected: number): number {
  const submitted = accepted + rejected;
  return submitted > 0 ? (rejected / submitted) * 100 : 0;
}

/** Start of a 24-hour series whose last step is the current, partial one. */
function seriesStart(now: number, stepMs: number): number {
  return Math.floor(now / stepMs) * stepMs + stepMs - DAY_MS;
}

/** Seconds a series slot covers: a whole step, or the time elapsed in the current one (at least a minute). */
function slotSeconds(now: number, start: number, slot: number, stepMs: number): number {
  const slotStart = start + slot * stepMs;
  return Math.max(60, Math.min(stepMs, now - slotStart) / 1000);
}

/**
 * A worker as the API shows it; `connected`: a session of it is authorized now (shown as such while it
 * has no recent share). `change`: the 10-minute hashrate against the 1-hour average ('new' without one).
 */
export function toWorker(
  w: WorkerActivity,
  username: string,
  connected = false,
  sparkline: number[] = [],
): Worker {
  const row = w.row;
  const figures = w.figures;
  return {
    id: row.id,
    name: row.displayName ?? row.name,
    fullName: `${row.walletAddress ?? username}.${row.name}`,
    coin: poolCoinOr(row.coin),
    status: w.online ? 'online' : connected ? 'connected' : 'offline',
    hashrate: figures?.realtime ?? 0,
    hashrate1h: figures?.hour ?? 0,
    hashrate24h: figures?.day ?? 0,
    ...(figures ? { averagedSeconds: figures.averagedSeconds } : {}),
    rejectRate: rejectPercent(row.acceptedShares, row.rejectedShares),
    sparkline,
    change: percentChange(figures?.realtime ?? 0, figures?.day ?? 0),
    shares: row.acceptedShares,
    rejects: row.rejectedShares,
    lastSeen: row.lastShareAt?.toISOString() ?? null,
    type: row.type === 'gpu' || row.type === 'cpu' ? row.type : 'asic',
    algorithm: algorithmId(row.algorithm, row.coin),
  };
}
