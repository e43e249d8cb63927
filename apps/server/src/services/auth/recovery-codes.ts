import { createHash, randomBytes } from 'node:crypto';
import { replaceRecoveryCodes, useRecoveryCode } from '../../db/repositories/recovery-codes.js';
import type { Queryable } from '../../db/types.js';

// 2FA recovery codes. A code is 16 characters of Crockford base32 (80 random bits),
// shown as four groups (`k7m2-9qhx-3t0v-a8pd`). Only its sha256 is stored: with 80 bits a plain
// hash cannot be reversed by guessing, and sign-in guesses are throttled like TOTP codes.
// Typing is forgiving: case, spaces and dashes do not matter, and o/i/l read as 0/1/1.

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 16;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = [...randomBytes(LENGTH)].map((byte) => ALPHABET[byte & 31] ?? '0').join('');
    return chars.match(/.{4}/g)?.join('-') ?? chars;
  });
}

/** The canonical form of what a user typed, or null when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | null {
  const chars = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  if (chars.length !== LENGTH || [...chars].some((c) => !ALPHABET.includes(c))) return null;
  return chars;
}

export function hashRecoveryCode(code: string): string | null {
  const canonical = normalizeRecoveryCode(code);
  return canonical === null ? null : createHash('sha256').update(canonical).digest('hex');
}

/** A sign-in code field holding something other than a 6-digit TOTP code is read as a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

/** New codes for the user, replacing every older one; the codes themselves are answered once. */
export async function issueRecoveryCodes(db: Queryable, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => hashRecoveryCode(code) ?? ''),
  );
  return codes;
}

/** Spends one of the user's unused codes; false when `typed` is none of them. */
export function spendRecoveryCode(db: Queryable, userId: number, typed: string, at: Date): Promise<boolean> {
  const hash = hashRecoveryCode(typed);
  return hash === null ? Promise.resolve(false) : useRecoveryCode(db, userId, hash, at);
}
