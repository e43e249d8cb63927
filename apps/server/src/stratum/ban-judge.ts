import { resetWindow, type ShareWindow } from './bans.js';
import type { Session } from './session.js';

/**
 * Counts one judged submit for bans, on its connection and on its address (two increments on the
 * hot path; the verdict runs once per `checkAfterShares` submits). Stale and busy refusals are
 * not counted as invalid by the caller.
 */
export function countForBan(session: Session, invalid: boolean): void {
  const window = session.window;
  const address = session.address;
  window.submits++;
  address.submits++;
  if (invalid) {
    window.invalid++;
    address.invalid++;
  }
  const bans = session.port.pool.bans;
  if (bans.due(window) || bans.due(address)) judge(session);
}

/** The verdicts: cut the mostly-invalid connections first; ban the address only after several. */
function judge(session: Session): void {
  const pool = session.port.pool;
  const { bans, logger } = pool;
  const address = session.address;
  const offenders = new Set<Session>();
  if (bans.due(session.window)) {
    if (bans.mostlyInvalid(session.window)) offenders.add(session);
    else resetWindow(session.window);
  }
  let addressFigures: ShareWindow | undefined;
  if (bans.due(address)) {
    if (bans.mostlyInvalid(address)) {
      addressFigures = { submits: address.submits, invalid: address.invalid };
      for (const other of pool.sessions)
        if (other.address === address && !other.closed && bans.mostlyInvalid(other.window))
          offenders.add(other);
    }
    resetWindow(address);
  }
  const now = Date.now();
  let addressBanned = false;
  for (const offender of offenders) addressBanned = cut(offender, addressFigures, now) || addressBanned;
  if (addressFigures && offenders.size === 0) {
    // The invalid work came from connections already gone (reconnecting to reset the count).
    addressBanned = bans.offend(address, [], now);
    logger.warn(
      { ip: address.ip, address: addressFigures },
      'an address sent mostly invalid shares from connections already closed',
    );
  }
  if (addressBanned) banAddress(session, addressFigures);
}

/** Closes an offending connection and bans its fingerprint; true when that bans its whole address. */
function cut(offender: Session, addressFigures: ShareWindow | undefined, now: number): boolean {
  const logins = [...offender.logins.keys()];
  const { bans, logger } = offender.port.pool;
  const addressBanned = bans.offend(offender.address, logins, now);
  logger.warn(
    {
      ip: offender.ip,
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

function banAddress(session: Session, addressFigures: ShareWindow | undefined): void {
  const pool = session.port.pool;
  const settings = pool.config.stratum.ban;
  pool.logger.warn(
    {
      ip: session.ip,
      logins: [...session.logins.keys()].slice(0, 8),
      connectionsCut: settings.addressBanAfterConnections,
      seconds: settings.durationSeconds,
      address: addressFigures,
    },
    'banning an address: several of its connections sent mostly invalid shares',
  );
  for (const other of pool.sessions) if (other.address === session.address) other.close('address banned');
}
