// The V1 ban rules (bans.ts, as ban-judge.ts applies them) on the XMR port's sessions: count each
// submit per connection and per address, cut mostly-invalid connections, then ban the address.
import type { Logger } from 'pino';
import { resetWindow, type BanList } from '../bans.js';
import type { MoneroSession } from './session.js';

export function countForBan(
  bans: BanList,
  sessions: Iterable<MoneroSession>,
  session: MoneroSession,
  invalid: boolean,
  logger: Logger,
): void {
  const { window, address } = session;
  window.submits++;
  address.submits++;
  if (invalid) {
    window.invalid++;
    address.invalid++;
  }
  if (!bans.due(window) && !bans.due(address)) return;
  const offenders = new Set<MoneroSession>();
  if (bans.due(window)) {
    if (bans.mostlyInvalid(window)) offenders.add(session);
    else resetWindow(window);
  }
  if (bans.due(address)) {
    if (bans.mostlyInvalid(address))
      for (const other of sessions)
        if (other.address === address && bans.mostlyInvalid(other.window)) offenders.add(other);
    resetWindow(address);
  }
  const now = Date.now();
  let addressBanned = false;
  for (const offender of offenders) {
    addressBanned = bans.offend(address, [offender.login], now) || addressBanned;
    logger.warn(
      {
        ip: address.ip,
        login: offender.login,
        submits: offender.window.submits,
        invalid: offender.window.invalid,
      },
      'closing an XMR connection whose shares are mostly invalid',
    );
    offender.close('mostly invalid shares');
  }
  if (addressBanned)
    for (const other of sessions) if (other.address === address) other.close('address banned');
}
