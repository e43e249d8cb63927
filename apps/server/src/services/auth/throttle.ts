import { isIPv6 } from 'node:net';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { SignInThrottleRepository, type ThrottleRule } from '../../db/repositories/sign-in-throttle.js';
import { ServiceError } from '../errors.js';
import { hashToken } from './tokens.js';

/**
 * What a credential check is counted against:
 * - `address`: the client address of a sign-in from an unknown device (config perAddress);
 * - `account`: the email typed, known or not, for sign-ins from unknown devices (perAccount);
 * - `device`: a known device of the account (perDevice); it is counted only against itself;
 * - `user`: a signed-in session's own password/code checks (perAddress).
 */
export type ThrottleKind = 'address' | 'account' | 'device' | 'user';
export interface ThrottleKey {
  kind: ThrottleKind;
  value: string;
}

/**
 * Keys whose count a successful check clears (their only source is the owner: a known device, a
 * signed-in session). `address` and `account` only give their own claim back: the owner signing
 * in from a new device does not wipe the strangers' failures on the account, or each sign-in of
 * the owner would buy the strangers a fresh round of guesses.
 */
const CLEARED_ON_SUCCESS: ReadonlySet<ThrottleKind> = new Set(['device', 'user']);
const PRUNE_EVERY_MS = 60_000;

/**
 * Throttles credential checks by their source, never by locking the account:
 * each check is claimed against its keys before it runs (refused with 429 and Retry-After while a
 * key is blocked), failures back off exponentially per key, and a success gives its own claim
 * back (and clears a known device's or a session's count). Unknown and known emails go through the same keys and statements.
 */
export class SignInThrottle {
  private readonly repo: SignInThrottleRepository;
  private readonly rules: Record<ThrottleKind, ThrottleRule>;
  private lastPrune = 0;

  constructor(
    db: Queryable,
    config: Config['auth']['throttle'],
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.repo = new SignInThrottleRepository(db);
    const rule = (limit: number): ThrottleRule => ({
      limit,
      backoffMs: config.backoffSeconds * 1000,
      maxBackoffMs: config.backoffMaxMinutes * 60_000,
      forgetMs: config.forgetMinutes * 60_000,
    });
    this.rules = {
      address: rule(config.perAddress),
      account: rule(config.perAccount),
      device: rule(config.perDevice),
      user: rule(config.perAddress),
    };
  }

  /** Runs `check` as one counted attempt on every key; a ServiceError from it is a failure. */
  async guard(keys: readonly ThrottleKey[], check: () => Promise<void>): Promise<void> {
    const now = this.now();
    this.pruneNow(now);
    const hashed = keys.map((key) => {
      const value = key.kind === 'address' ? addressKey(key.value) : key.value;
      return { kind: key.kind, hash: hashToken(`${key.kind}:${value}`) };
    });
    const claimed: typeof hashed = [];
    let pastAddressLimit = false;
    for (const key of hashed) {
      // One address adds at most its own limit to an account's count: its later guesses (one per
      // backoff step) are paced by its own key and only have to respect the account's block, so
      // a single stranger can never bring that block down on the owner's new devices; that takes
      // guesses from several addresses.
      if (key.kind === 'account' && pastAddressLimit) {
        const until = await this.repo.blockedUntil(key.hash, new Date(now));
        if (until) throw tooManyAttempts(until.getTime() - now);
        continue;
      }
      const claim = await this.repo.claim(key.hash, this.rules[key.kind], new Date(now));
      if (!claim.claimed) throw tooManyAttempts(claim.blockedUntil.getTime() - now);
      claimed.push(key);
      if (key.kind === 'address' && claim.failures > this.rules.address.limit) pastAddressLimit = true;
    }
    await check();
    for (const key of claimed) {
      if (CLEARED_ON_SUCCESS.has(key.kind)) await this.repo.clear(key.hash);
      else await this.repo.release(key.hash, this.rules[key.kind].limit);
    }
  }

  /** Drops forgotten keys at most once a minute, in the background. */
  private pruneNow(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS && now >= this.lastPrune) return;
    this.lastPrune = now;
    const forgetMs = Math.max(...Object.values(this.rules).map((rule) => rule.forgetMs));
    this.repo.prune(new Date(now - forgetMs), new Date(now)).catch(this.onError);
  }
}

/**
 * The part of a client address one source controls: an IPv4 address (also when IPv4-mapped),
 * or the /64 prefix of an IPv6 one (one host commonly holds a whole /64, and would otherwise get
 * 2^64 fresh keys).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last]
    : first;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

function tooManyAttempts(waitMs: number): ServiceError {
  return new ServiceError(429, 'too-many-attempts', 'tooManyAttempts', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
  });
}
