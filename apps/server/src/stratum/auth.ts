import { isValidAddress, splitWorkerName, type CoinParams } from '@manjam/protocol';
import type { CoinId } from '../config/index.js';
import type { Database } from '../db/index.js';
import { PayeesRepository } from '../db/repositories/payees.js';
import { minerRef, type MinerRef } from '../shares/types.js';

/** Why a login was refused (24), or that the account lookup failed (20, try again). */
export type LoginOutcome = { ok: true; miner: MinerRef } | { ok: false; reason: 'unknown' | 'bad-worker' | 'lookup-failed' };

const ACCOUNT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const WORKER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;

/**
 * Stratum usernames: `<payout address>[.worker]` for wallet mining without an account (the
 * address must be valid for the port's coin and network), or `<Manjam username>[.worker]`
 * (case-insensitive). Account lookups are cached briefly so reconnect storms do not hit the
 * database once per miner.
 */
export class LoginResolver {
  private readonly cache = new Map<string, { userId: number | undefined; username: string; expires: number }>();
  private readonly payees: PayeesRepository;

  constructor(db: Database) {
    this.payees = new PayeesRepository(db);
  }

  async resolve(login: string, coin: CoinId, params: CoinParams): Promise<LoginOutcome> {
    const { account, worker } = splitWorkerName(login.trim());
    if (!WORKER_NAME.test(worker)) return { ok: false, reason: 'bad-worker' };
    if (isValidAddress(account, params)) return { ok: true, miner: minerRef(coin, { kind: 'wallet', address: account }, worker) };
    if (!ACCOUNT_NAME.test(account)) return { ok: false, reason: 'unknown' };
    const key = account.toLowerCase();
    const now = Date.now();
    let entry = this.cache.get(key);
    if (!entry || entry.expires <= now) {
      let found;
      try {
        found = await this.payees.findAccount(account);
      } catch {
        return { ok: false, reason: 'lookup-failed' };
      }
      entry = found
        ? { userId: found.id, username: found.username, expires: now + POSITIVE_TTL_MS }
        : { userId: undefined, username: account, expires: now + NEGATIVE_TTL_MS };
      this.cache.set(key, entry);
      if (this.cache.size > 100_000) this.cache.clear();
    }
    if (entry.userId === undefined) return { ok: false, reason: 'unknown' };
    return { ok: true, miner: minerRef(coin, { kind: 'user', userId: entry.userId, username: entry.username }, worker) };
  }
}
