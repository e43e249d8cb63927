import { MESSAGES } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { SessionsRepository } from '../../db/repositories/sessions.js';
import { UsersRepository, type UserRow } from '../../db/repositories/users.js';
import { ServiceError, sessionIdle } from '../errors.js';
import { KnownDevices } from './devices.js';
import { dummyHash, hashPassword, verifyPassword } from './passwords.js';
import type { SecretBox } from './secret-box.js';
import { SignInThrottle, type ThrottleKey } from './throttle.js';
import { hashToken, newToken } from './tokens.js';
import { newTotpEnrolment, totpStep, type TotpEnrolment } from './totp.js';
import { countRecoveryCodesLeft, deleteRecoveryCodes } from '../../db/repositories/recovery-codes.js';
import { issueRecoveryCodes, looksLikeTotp, spendRecoveryCode } from './recovery-codes.js';

export interface AuthDeps {
  db: Queryable;
  config: Config;
  box: SecretBox;
  now: () => number;
  /** A background session re-check that failed (the database is down): logged, the request was already answered. */
  onError?: (error: unknown) => void;
}

export interface SignedIn {
  user: UserRow;
  sessionId: number;
  /** The session was opened with the password and a TOTP code (what the operator console asks for). */
  totpPassed: boolean;
}

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** The known-device value the client sent (its cookie), if any. */
  device?: string | null;
}

export interface SignInResult {
  token: string;
  user: UserRow;
  expiresAt: Date;
  /** The known-device value to keep (renewed on every full sign-in) and how long, in seconds. */
  device: { value: string; maxAgeSeconds: number };
}

/** Inactivity after which a session ends when the user's Auto Logout setting is on (the seed: 30 minutes). */
export const AUTO_LOGOUT_MS = 30 * 60_000;
const TOUCH_EVERY_MS = 60_000;
/** A verified session is trusted this long without asking the database again (logout in this process clears it at once). */
const SESSION_CACHE_MS = 1_000;
/**
 * Past SESSION_CACHE_MS and up to this age, a request is answered with the cached session while
 * the database re-checks it in the background (one check per token at a time); the next request
 * after a revocation elsewhere is refused. A request never waits behind a slow database query
 * (on embedded PGlite, one connection, a long aggregate) just to re-read its own session. Older
 * than this, the request waits for the database.
 */
const SESSION_STALE_MS = 30_000;

const invalidCredentials = () => new ServiceError(401, 'invalid-credentials', 'loginFailed');

/** Sign-in, sessions, throttling of guesses, known devices and TOTP two-factor authentication. */
export class AuthService {
  private readonly users: UsersRepository;
  private readonly sessions: SessionsRepository;
  private readonly throttle: SignInThrottle;
  private readonly devices: KnownDevices;
  private readonly touched = new Map<number, number>();
  private readonly verified = new Map<string, { signedIn: SignedIn; at: number }>();
  private readonly rechecking = new Map<string, Promise<SignedIn | undefined>>();
  /**
   * Counts forgetUser calls: a session read that started before one is answered but not cached
   * (it may hold the user as they were before their 2FA, email or password changed).
   */
  private forgets = 0;

  constructor(private readonly deps: AuthDeps) {
    this.users = new UsersRepository(deps.db);
    this.sessions = new SessionsRepository(deps.db);
    this.throttle = new SignInThrottle(deps.db, deps.config.auth.throttle, deps.now, deps.onError);
    this.devices = new KnownDevices(deps.box, deps.config.auth.knownDeviceDays * 86_400_000);
    // Computed now, so the first sign-in with an unknown email does not take a hash longer.
    dummyHash().catch((error: unknown) => deps.onError?.(error));
  }

  /**
   * Signs in. An unknown email and a wrong password answer alike (401 invalid-credentials, and
   * the same work: the password is checked against a dummy hash, the same throttle keys are
   * claimed). A sign-in that stops at the TOTP prompt counts as a failed attempt too, so knowing
   * the password does not reset the count between code guesses. From a device that already
   * signed in to this account, only that device's own failures count (a stranger's guesses
   * elsewhere do not slow it); from any other device, the client address and the email do.
   */
  async login(
    email: string,
    password: string,
    totp: string | undefined,
    meta: RequestMeta,
  ): Promise<SignInResult> {
    const now = this.deps.now();
    const user = await this.users.findByEmail(email);
    const device = this.devices.read(meta.device ?? null, now);
    const known = device !== null && user !== undefined && device.userId === user.id ? device : null;
    const keys: ThrottleKey[] = known
      ? [{ kind: 'device', value: known.deviceId }]
      : [
          { kind: 'address', value: meta.ip ?? 'unknown' },
          { kind: 'account', value: email.trim().toLowerCase() },
        ];
    await this.throttle.guard(keys, async () => {
      if (!user) {
        await verifyPassword(await dummyHash(), password);
        throw invalidCredentials();
      }
      if (!(await verifyPassword(user.passwordHash, password))) throw invalidCredentials();
      if (user.totpEnabled) {
        if (!totp) throw new ServiceError(401, 'totp-required', 'totpRequired');
        if (!(await this.secondFactorMatches(user, totp)))
          throw new ServiceError(401, 'totp-invalid', 'totpInvalid');
      }
    });
    if (!user) throw invalidCredentials();
    const { token, hash } = newToken();
    const createdAt = new Date(now);
    const expiresAt = new Date(now + this.deps.config.auth.sessionTtlHours * 3_600_000);
    await this.sessions.create({
      userId: user.id,
      tokenHash: hash,
      createdAt,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      // The code was checked above whenever 2FA is on: such a session passed password + TOTP.
      totpPassed: user.totpEnabled,
    });
    const value = this.devices.issue(user.id, now, known?.deviceId);
    return { token, user, expiresAt, device: { value, maxAgeSeconds: this.devices.maxAgeSeconds } };
  }

  /**
   * The signed-in user of a bearer token, or undefined (unknown, revoked or expired). Throws
   * ServiceError 401 'session-idle' when Auto Logout ends the session now (idle past its limit).
   * `fresh`: the session and its user (role, 2FA) are read from the database now, not from the
   * cache (the operator console: a role revoked by `manjam operator revoke`, in any process,
   * ends on the very next request).
   */
  async authenticate(token: string, options: { fresh?: boolean } = {}): Promise<SignedIn | undefined> {
    if (token.length < 20 || token.length > 200) return undefined;
    const now = this.deps.now();
    const tokenHash = hashToken(token);
    // Not joined to a re-check already running: its read may predate the revocation.
    if (options.fresh === true) return this.verify(tokenHash, now);
    const cached = this.verified.get(tokenHash);
    if (cached && now >= cached.at) {
      const age = now - cached.at;
      if (age < SESSION_CACHE_MS) return cached.signedIn;
      if (age < SESSION_STALE_MS) {
        this.recheck(tokenHash, now).catch((error: unknown) => {
          // An Auto Logout ending (session-idle) is an answer, not a fault.
          if (!(error instanceof ServiceError)) this.deps.onError?.(error);
        });
        return cached.signedIn;
      }
    }
    return this.recheck(tokenHash, now);
  }

  /** Reads the session from the database (once at a time per token) and refreshes the cache. */
  private recheck(tokenHash: string, now: number): Promise<SignedIn | undefined> {
    let running = this.rechecking.get(tokenHash);
    if (!running) {
      running = this.verify(tokenHash, now).finally(() => this.rechecking.delete(tokenHash));
      this.rechecking.set(tokenHash, running);
    }
    return running;
  }

  private async verify(tokenHash: string, now: number): Promise<SignedIn | undefined> {
    const forgets = this.forgets;
    const found = await this.sessions.findUser(tokenHash, new Date(now));
    if (!found) {
      this.verified.delete(tokenHash);
      return undefined;
    }
    if (found.autoLogout && now - found.lastSeenAt.getTime() > AUTO_LOGOUT_MS) {
      this.verified.delete(tokenHash);
      await this.sessions.revoke(tokenHash, new Date(now));
      // Not a silent "unauthorized": every request waiting on this check learns the session ended
      // by Auto Logout (code session-idle), and the web's login page says so.
      throw sessionIdle();
    }
    const last = this.touched.get(found.sessionId) ?? found.lastSeenAt.getTime();
    if (now - last >= TOUCH_EVERY_MS) {
      this.touched.set(found.sessionId, now);
      if (this.touched.size > 100_000) this.touched.clear();
      await this.sessions.touch(found.sessionId, new Date(now));
    }
    const signedIn = { user: found.user, sessionId: found.sessionId, totpPassed: found.totpPassed };
    if (forgets !== this.forgets) return signedIn;
    if (this.verified.size > 10_000) this.verified.clear();
    this.verified.set(tokenHash, { signedIn, at: now });
    return signedIn;
  }

  async logout(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    this.verified.delete(tokenHash);
    await this.sessions.revoke(tokenHash, new Date(this.deps.now()));
  }

  /** Forgets cached sessions of a user (their credentials, 2FA or email changed). */
  private forgetUser(userId: number): void {
    this.forgets += 1;
    this.rechecking.clear();
    for (const [hash, entry] of this.verified)
      if (entry.signedIn.user.id === userId) this.verified.delete(hash);
  }

  /** Starts enrolment: a new secret (stored encrypted, not yet enabled), its otpauth URL and QR code. */
  async setupTotp(user: UserRow): Promise<TotpEnrolment> {
    // Re-running setup while 2FA is on would replace the secret in force: turn it off first.
    if (user.totpEnabled) throw new ServiceError(409, 'totp-already-enabled', 'totpAlreadyOn');
    const enrolment = await newTotpEnrolment(user.email);
    await this.users.setTotp(user.id, this.deps.box.encrypt(enrolment.secret), false);
    this.forgetUser(user.id);
    return enrolment;
  }

  /** Turns 2FA on: the password and a code of the secret from setup; answers the new recovery codes (shown once). */
  async enableTotp(user: UserRow, password: string, code: string): Promise<string[]> {
    if (!user.totpSecret) throw new ServiceError(409, 'totp-not-set-up', 'totpNotSetUp');
    await this.attempt(user, async () => {
      await this.checkPassword(user, password, 'password');
      if (!(await this.totpMatches(user, code))) throw totpInvalid('code');
    });
    await this.users.setTotp(user.id, user.totpSecret, true);
    this.forgetUser(user.id);
    return issueRecoveryCodes(this.deps.db, user.id);
  }

  /** New recovery codes for the password and a current TOTP code; every older code stops working. */
  async regenerateRecoveryCodes(user: UserRow, password: string, code: string): Promise<string[]> {
    if (!user.totpEnabled) throw new ServiceError(409, 'totp-not-set-up', 'recoveryCodesNeedTotp');
    await this.attempt(user, async () => {
      await this.checkPassword(user, password, 'password');
      if (!(await this.totpMatches(user, code))) throw totpInvalid('code');
    });
    return issueRecoveryCodes(this.deps.db, user.id);
  }

  /** How many unused recovery codes the user has (0 when 2FA is off). */
  recoveryCodesLeft(user: UserRow): Promise<number> {
    return user.totpEnabled ? countRecoveryCodesLeft(this.deps.db, user.id) : Promise.resolve(0);
  }

  /** Turns 2FA off: the password and a current code. */
  async disableTotp(user: UserRow, password: string, code: string): Promise<void> {
    if (!user.totpEnabled) return;
    await this.attempt(user, async () => {
      await this.checkPassword(user, password, 'password');
      if (!(await this.totpMatches(user, code))) throw totpInvalid('code');
    });
    await this.users.setTotp(user.id, null, false);
    await deleteRecoveryCodes(this.deps.db, user.id);
    this.forgetUser(user.id);
  }

  /**
   * Throws unless `password` is the account's and, when 2FA is on, `totp` is a valid code: every
   * sensitive change (email, password, payout address) goes through here. Counted against the
   * user's own throttle key.
   */
  async confirmSensitiveChange(
    user: UserRow,
    password: string,
    totp: string | undefined,
    passwordField = 'password',
  ): Promise<void> {
    await this.attempt(user, async () => {
      await this.checkPassword(user, password, passwordField);
      if (!user.totpEnabled) return;
      if (!totp)
        throw new ServiceError(403, 'totp-required', 'totpRequired', { totp: MESSAGES.totpRequired });
      if (!(await this.totpMatches(user, totp))) throw totpInvalid('totp');
    });
  }

  async changePassword(
    signedIn: SignedIn,
    current: string,
    next: string,
    totp: string | undefined,
  ): Promise<void> {
    await this.confirmSensitiveChange(signedIn.user, current, totp, 'currentPassword');
    await this.users.setPasswordHash(signedIn.user.id, await hashPassword(next));
    await this.sessions.revokeOthers(signedIn.user.id, signedIn.sessionId, new Date(this.deps.now()));
    this.forgetUser(signedIn.user.id);
  }

  /** Sets a new password for the owner of a reset link (services/accounts/password-reset.ts); every session ends. */
  async resetPassword(userId: number, next: string): Promise<void> {
    await this.users.setPasswordHash(userId, await hashPassword(next));
    await this.sessions.revokeAll(userId, new Date(this.deps.now()));
    this.forgetUser(userId);
  }

  /**
   * Sets the sign-in email (after its owner confirmed it: services/accounts/email-change.ts);
   * false when another account has it. Cached sessions are re-read.
   */
  async setEmail(userId: number, email: string): Promise<boolean> {
    const changed = await this.users.setEmail(userId, email);
    this.forgetUser(userId);
    return changed;
  }

  private async checkPassword(user: UserRow, password: string, field: string): Promise<void> {
    if (!(await verifyPassword(user.passwordHash, password)))
      throw new ServiceError(403, 'wrong-password', 'wrongPassword', { [field]: MESSAGES.wrongPassword });
  }

  /** At sign-in: a 6-digit TOTP code, or else one of the user's unused recovery codes (spent on success). */
  private async secondFactorMatches(user: UserRow, code: string): Promise<boolean> {
    if (looksLikeTotp(code)) return this.totpMatches(user, code);
    return spendRecoveryCode(this.deps.db, user.id, code, new Date(this.deps.now()));
  }

  /** A valid code whose time step is newer than the last one accepted; it is used up on success. */
  private async totpMatches(user: UserRow, code: string): Promise<boolean> {
    if (!user.totpSecret) return false;
    const step = await totpStep(this.deps.box.decrypt(user.totpSecret), code, this.deps.now());
    return step !== null && (await this.users.useTotpStep(user.id, step));
  }

  /**
   * Runs one credential check of a signed-in user (password and/or TOTP code) as a counted
   * attempt against that user's own key: a session cannot guess without bound, and nobody else's
   * failures (sign-in guesses by strangers) slow the owner's changes.
   */
  private attempt(user: UserRow, check: () => Promise<void>): Promise<void> {
    return this.throttle.guard([{ kind: 'user', value: String(user.id) }], check);
  }
}

function totpInvalid(field: string): ServiceError {
  return new ServiceError(403, 'totp-invalid', 'totpInvalid', { [field]: MESSAGES.totpInvalid });
}
