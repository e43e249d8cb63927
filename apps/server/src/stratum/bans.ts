import { BAN_SCOPES } from '@manjam/contract/tables';

/**
 * Fair bans for shares that are mostly invalid (stale shares do not count: they happen to honest
 * miners around every new block). Submits are counted per connection AND per address (all its
 * connections, kept across reconnects), each judged every `checkAfterShares` submits:
 * - a connection whose window is mostly invalid is cut, and its fingerprint (address + login) is
 *   refused for `connectionBanSeconds`;
 * - an address whose window is mostly invalid gets its mostly-invalid connections cut (honest
 *   miners behind the same NAT keep mining);
 * - only when `addressBanAfterConnections` connections of one address were cut within
 *   `offenceWindowSeconds` is the whole address banned, for `durationSeconds`.
 * The same records hold each address's open connection count (the per-address cap).
 */
export interface BanSettings {
  enabled: boolean;
  checkAfterShares: number;
  invalidPercent: number;
  durationSeconds: number;
  connectionBanSeconds: number;
  addressBanAfterConnections: number;
  offenceWindowSeconds: number;
}

/** Submits (and invalid ones) since the last verdict. */
export interface ShareWindow {
  submits: number;
  invalid: number;
}

/** What the pool knows of one remote address. */
export class AddressRecord implements ShareWindow {
  connections = 0;
  submits = 0;
  invalid = 0;
  /** When connections of this address were cut for invalid shares. */
  offences: number[] = [];
  bannedUntil = 0;
  lastSeenMs: number;
  /** Shares refused under logins of other people's workers (stratum/strangers.ts): kept here, not in those workers. */
  strangerRejects = 0;

  constructor(
    readonly ip: string,
    nowMs: number,
  ) {
    this.lastSeenMs = nowMs;
  }
}

// The scopes are the contract's list: the operator console shows the same ones.
export { BAN_SCOPES };
export type BanScope = (typeof BAN_SCOPES)[number];

/** A ban in force: a whole address, or one login on one address (a cut connection's fingerprint). */
export interface ActiveBan {
  scope: BanScope;
  ip: string;
  login: string | null;
  /** Epoch ms the ban ends. */
  until: number;
}

export class BanList {
  private readonly addresses = new Map<string, AddressRecord>();
  /** `${ip} ${login}` -> end of its ban. */
  private readonly fingerprints = new Map<string, number>();
  /** Bans decided since start, by scope (for /metrics). */
  readonly counts: Record<BanScope, number> = { connection: 0, ip: 0 };

  constructor(readonly settings: BanSettings) {}

  /** The record a new connection counts on, or undefined when its address is banned or at `maxConnections`. */
  admit(ip: string, maxConnections: number, nowMs: number = Date.now()): AddressRecord | undefined {
    let record = this.addresses.get(ip);
    if (record && (record.bannedUntil > nowMs || record.connections >= maxConnections)) return undefined;
    if (!record) {
      record = new AddressRecord(ip, nowMs);
      this.addresses.set(ip, record);
    }
    record.connections++;
    record.lastSeenMs = nowMs;
    return record;
  }

  /** A connection of this address closed. */
  release(record: AddressRecord, nowMs: number = Date.now()): void {
    record.connections = Math.max(0, record.connections - 1);
    record.lastSeenMs = nowMs;
  }

  isBanned(ip: string, nowMs: number = Date.now()): boolean {
    return (this.addresses.get(ip)?.bannedUntil ?? 0) > nowMs;
  }

  /** Whether this login was on a connection of this address cut for invalid shares lately. */
  isLoginBanned(ip: string, login: string, nowMs: number = Date.now()): boolean {
    return (this.fingerprints.get(`${ip} ${login}`) ?? 0) > nowMs;
  }

  /** Whether a window holds enough submits for a verdict. */
  due(window: ShareWindow): boolean {
    return this.settings.enabled && window.submits >= this.settings.checkAfterShares;
  }

  mostlyInvalid(window: ShareWindow): boolean {
    return window.submits > 0 && (window.invalid * 100) / window.submits >= this.settings.invalidPercent;
  }

  /**
   * Records a connection of `record` cut for invalid shares: its logins are refused on this
   * address for a while. True when this offence bans the whole address.
   */
  offend(record: AddressRecord, logins: Iterable<string>, nowMs: number = Date.now()): boolean {
    this.counts.connection++;
    const until = nowMs + this.settings.connectionBanSeconds * 1000;
    for (const login of logins) this.fingerprints.set(`${record.ip} ${login}`, until);
    const since = nowMs - this.settings.offenceWindowSeconds * 1000;
    record.offences = record.offences.filter((at) => at > since);
    record.offences.push(nowMs);
    if (record.offences.length < this.settings.addressBanAfterConnections) return false;
    record.offences = [];
    record.bannedUntil = nowMs + this.settings.durationSeconds * 1000;
    this.counts.ip++;
    return true;
  }

  /**
   * The bans in force, for the operator console: whole addresses (scope 'ip') and the address +
   * login pairs of cut connections (scope 'connection'), each with its end.
   */
  active(nowMs: number = Date.now()): ActiveBan[] {
    const bans: ActiveBan[] = [];
    for (const record of this.addresses.values())
      if (record.bannedUntil > nowMs)
        bans.push({ scope: 'ip', ip: record.ip, login: null, until: record.bannedUntil });
    for (const [key, until] of this.fingerprints) {
      if (until <= nowMs) continue;
      const space = key.indexOf(' ');
      bans.push({ scope: 'connection', ip: key.slice(0, space), login: key.slice(space + 1), until });
    }
    return bans.sort((a, b) => b.until - a.until);
  }

  /**
   * Lifts the bans of an address (the operator console): its address ban, its offences (so the
   * next cut connection does not ban it again at once) and its address + login bans. The number
   * of bans lifted (0 when the address had none).
   */
  lift(ip: string, nowMs: number = Date.now()): number {
    let lifted = 0;
    const record = this.addresses.get(ip);
    if (record) {
      if (record.bannedUntil > nowMs) lifted++;
      record.bannedUntil = 0;
      record.offences = [];
    }
    for (const [key, until] of this.fingerprints) {
      if (!key.startsWith(`${ip} `)) continue;
      if (until > nowMs) lifted++;
      this.fingerprints.delete(key);
    }
    return lifted;
  }

  /** Forgets expired fingerprints and addresses with no connection, ban or recent activity. */
  sweep(nowMs: number = Date.now()): void {
    for (const [key, end] of this.fingerprints) if (end <= nowMs) this.fingerprints.delete(key);
    const quietSince = nowMs - this.settings.offenceWindowSeconds * 1000;
    for (const [ip, record] of this.addresses) {
      if (record.connections === 0 && record.bannedUntil <= nowMs && record.lastSeenMs <= quietSince)
        this.addresses.delete(ip);
    }
  }

  /** Addresses and fingerprints held (bounded memory checks). */
  get size(): { addresses: number; fingerprints: number } {
    return { addresses: this.addresses.size, fingerprints: this.fingerprints.size };
  }
}

/** Empties a window after its verdict. */
export function resetWindow(window: ShareWindow): void {
  window.submits = 0;
  window.invalid = 0;
}
