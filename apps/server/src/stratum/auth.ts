import { isValidUsername } from '@manjam/contract/tables';
import { isPayableAddress, splitWorkerName, type Network } from '@manjam/protocol';
import type { CoinId } from '../config/index.js';
import type { Database } from '../db/index.js';
import { PayeesRepository } from '../db/repositories/payees.js';
import { minerRef, type MinerRef } from '../shares/types.js';
import type { AddressRecord } from './bans.js';
import { WorkerOwners } from './strangers.js';

/** Why a login was refused (24), or that the account lookup failed (20, try again). */
export type LoginOutcome =
  { ok: true; miner: MinerRef } | { ok: false; reason: 'unknown' | 'bad-worker' | 'lookup-failed' };

/** The worker part of a Stratum login (after the first dot). */
export const WORKER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
/** Bounds of the account caches: the least recently used entries go first. */
const MAX_ACCOUNTS = 50_000;
const MAX_UNKNOWN = 10_000;

interface CacheEntry {
  userId: number | undefined;
  username: string;
  expires: number;
}

/** A Map kept in least-recently-used order, trimmed from the oldest end. */
class BoundedCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= now) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/**
 * Stratum usernames: `<payout address>[.worker]` for wallet mining without an account (the
 * address must be valid for the port's coin and network), or `<Manjam username>[.worker]`
 * (the username policy of the contract's `isValidUsername`)
 * (case-insensitive). Account lookups are cached briefly so reconnect storms do not hit the
 * database once per miner; known and unknown names are cached apart, each with a bound, so a
 * flood of made-up names can neither grow memory nor push real accounts out.
 */
export class LoginResolver {
  private readonly accounts: BoundedCache;
  private readonly unknown: BoundedCache;
  private readonly payees: PayeesRepository;
  /** Which logins speak for their workers (strangers.ts): every login resolved with its address is bound. */
  readonly owners = new WorkerOwners();

  constructor(db: Database, bounds: { accounts?: number; unknown?: number } = {}) {
    this.payees = new PayeesRepository(db);
    this.accounts = new BoundedCache(bounds.accounts ?? MAX_ACCOUNTS);
    this.unknown = new BoundedCache(bounds.unknown ?? MAX_UNKNOWN);
  }

  /**
   * `chain`: the network of the port's coin (a Bitcoin-family coin's CoinParams fits). `from`:
   * the connection's address record; the login is bound to it (owners.speaksFor tells whether it
   * is the worker's own miner or a stranger's).
   */
  async resolve(
    login: string,
    coin: CoinId,
    chain: { network: Network },
    from?: AddressRecord,
  ): Promise<LoginOutcome> {
    const outcome = await this.lookup(login, coin, chain);
    if (outcome.ok && from) this.owners.bind(outcome.miner, from);
    return outcome;
  }

  private async lookup(login: string, coin: CoinId, chain: { network: Network }): Promise<LoginOutcome> {
    const { account, worker } = splitWorkerName(login.trim());
    if (!WORKER_NAME.test(worker)) return { ok: false, reason: 'bad-worker' };
    if (isPayableAddress(coin, chain.network, account))
      return { ok: true, miner: minerRef(coin, { kind: 'wallet', address: account }, worker) };
    // Exactly the usernames registration accepts (one rule, in the contract).
    if (!isValidUsername(account)) return { ok: false, reason: 'unknown' };
    const key = account.toLowerCase();
    const now = Date.now();
    let entry = this.accounts.get(key, now) ?? this.unknown.get(key, now);
    if (!entry) {
      let found;
      try {
        found = await this.payees.findAccount(account);
      } catch {
        return { ok: false, reason: 'lookup-failed' };
      }
      entry = found
        ? { userId: found.id, username: found.username, expires: now + POSITIVE_TTL_MS }
        : { userId: undefined, username: account, expires: now + NEGATIVE_TTL_MS };
      (found ? this.accounts : this.unknown).set(key, entry);
    }
    if (entry.userId === undefined) return { ok: false, reason: 'unknown' };
    return {
      ok: true,
      miner: minerRef(coin, { kind: 'user', userId: entry.userId, username: entry.username }, worker),
    };
  }

  /** Cached account names (known, unknown): bounded. */
  get cached(): { accounts: number; unknown: number } {
    return { accounts: this.accounts.size, unknown: this.unknown.size };
  }
}

/**
 * The starting difficulty a miner asks for in its Stratum password, by the common convention
 * `d=<number>` (alone or among comma/semicolon/space separated options: "x,d=0.5"); undefined when none.
 */
export function passwordDifficulty(password: string | undefined): number | undefined {
  const match = /(?:^|[,;\s])d=(\d+(?:\.\d+)?(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)(?=$|[,;\s])/i.exec(
    password ?? '',
  );
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
