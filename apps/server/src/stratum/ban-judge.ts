import type { Logger } from 'pino';
import { markUseful } from './listener.js';
import { resetWindow, type AddressRecord, type BanList, type ShareWindow } from './bans.js';

/**
 * How a judged submit counts for bans. `invalid`: a refused share the miner is to blame for
 * (including one refused unchecked because its own proof-of-work queue was full: fair-work.ts);
 * `valid`: an accepted share; `uncounted`: neither — a stale share (honest miners get them around
 * every block) or a refusal for the pool's own capacity, which must never count in the miner's
 * favour (counted as a valid submit, it would dilute a flooder's invalid ratio).
 */
export type BanVerdict = 'valid' | 'invalid' | 'uncounted';

/** A connection as the judge sees it (a V1 Session or an XMR MoneroSession). */
export interface JudgedConnection {
  readonly address: AddressRecord;
  readonly window: ShareWindow;
  readonly closed: boolean;
  /** Its socket: a valid share keeps the connection's seat on its port (listener.ts markUseful). */
  readonly socket?: object;
  close(reason: string): void;
}

/**
 * The one ban judge of every Stratum port (V1 and XMR share it; bans.ts holds the rules). Each
 * submit counts on its connection and on its address (two increments on the hot path; the
 * verdict runs once per `checkAfterShares` submits). EXACT: a closed connection is never counted
 * or judged again (a share that finishes hashing after its connection was cut changes nothing),
 * so each connection gets at most one ban decision.
 */
export class BanJudge<S extends JudgedConnection> {
  constructor(
    private readonly bans: BanList,
    private readonly sessions: Iterable<S>,
    private readonly logger: Logger,
    /** The logins refused on its address once a connection is cut. */
    private readonly loginsOf: (session: S) => string[],
  ) {}

  count(session: S, verdict: BanVerdict): void {
    if (session.closed || verdict === 'uncounted') return;
    if (verdict === 'valid' && session.socket) markUseful(session.socket);
    const { window, address } = session;
    window.submits++;
    address.submits++;
    if (verdict === 'invalid') {
      window.invalid++;
      address.invalid++;
    }
    if (this.bans.due(window) || this.bans.due(address)) this.judge(session);
  }

  /** The verdicts: cut the mostly-invalid connections first; ban the address only after several. */
  private judge(session: S): void {
    const { bans } = this;
    const address = session.address;
    const offenders = new Set<S>();
    if (bans.due(session.window)) {
      if (bans.mostlyInvalid(session.window)) offenders.add(session);
      else resetWindow(session.window);
    }
    let addressFigures: ShareWindow | undefined;
    if (bans.due(address)) {
      if (bans.mostlyInvalid(address)) {
        addressFigures = { submits: address.submits, invalid: address.invalid };
        for (const other of this.sessions)
          if (other.address === address && !other.closed && bans.mostlyInvalid(other.window))
            offenders.add(other);
      }
      resetWindow(address);
    }
    const now = Date.now();
    let addressBanned = false;
    for (const offender of offenders)
      addressBanned = this.cut(offender, addressFigures, now) || addressBanned;
    if (addressFigures && offenders.size === 0) {
      // The invalid work came from connections already gone (reconnecting to reset the count).
      addressBanned = bans.offend(address, [], now);
      this.logger.warn(
        { ip: address.ip, address: addressFigures },
        'an address sent mostly invalid shares from connections already closed',
      );
    }
    if (addressBanned) this.banAddress(session, addressFigures);
  }

  /** Closes an offending connection and bans its fingerprint; true when that bans its whole address. */
  private cut(offender: S, addressFigures: ShareWindow | undefined, now: number): boolean {
    const logins = this.loginsOf(offender);
    const addressBanned = this.bans.offend(offender.address, logins, now);
    this.logger.warn(
      {
        ip: offender.address.ip,
        logins: logins.slice(0, 8),
        submits: offender.window.submits,
        invalid: offender.window.invalid,
        address: addressFigures,
      },
      'closing a connection whose shares are mostly invalid (its logins are refused on this address for a while)',
    );
    offender.close('mostly invalid shares');
    return addressBanned;
  }

  private banAddress(session: S, addressFigures: ShareWindow | undefined): void {
    const settings = this.bans.settings;
    this.logger.warn(
      {
        ip: session.address.ip,
        logins: this.loginsOf(session).slice(0, 8),
        connectionsCut: settings.addressBanAfterConnections,
        seconds: settings.durationSeconds,
        address: addressFigures,
      },
      'banning an address: several of its connections sent mostly invalid shares',
    );
    for (const other of this.sessions)
      if (other.address === session.address && !other.closed) other.close('address banned');
  }
}
