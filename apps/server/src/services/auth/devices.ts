import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from './secret-box.js';

/** A device that completed a full sign-in (password, and the TOTP code when 2FA is on). */
export interface KnownDevice {
  userId: number;
  /** Random per device; the key its own failures are throttled under. */
  deviceId: string;
}

/**
 * Known devices as signed values (`userId.deviceId.expiresSeconds.mac`) kept by the browser in
 * an HttpOnly cookie: no table, nothing to look up, and a stranger cannot forge one. A known
 * device is not slowed by other sources' failures on its account; it still has to
 * give the password and the TOTP code. Only the account the device signed in to is known to it.
 */
export class KnownDevices {
  constructor(
    private readonly box: SecretBox,
    private readonly lifetimeMs: number,
  ) {}

  /** A value for `userId`, renewing `deviceId` when the device was already known. */
  issue(userId: number, now: number, deviceId = randomBytes(12).toString('base64url')): string {
    const body = `${userId}.${deviceId}.${Math.floor((now + this.lifetimeMs) / 1000)}`;
    return `${body}.${this.box.mac(`device:${body}`)}`;
  }

  get maxAgeSeconds(): number {
    return Math.floor(this.lifetimeMs / 1000);
  }

  /** The device a value names, or null when it is absent, altered or expired. */
  read(value: string | null, now: number): KnownDevice | null {
    if (!value || value.length > 200) return null;
    const parts = value.split('.');
    if (parts.length !== 4) return null;
    const [user, deviceId, expires, mac] = parts as [string, string, string, string];
    const expected = Buffer.from(this.box.mac(`device:${user}.${deviceId}.${expires}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!/^\d+$/.test(user) || !/^\d+$/.test(expires) || Number(expires) * 1000 <= now) return null;
    return { userId: Number(user), deviceId };
  }
}
