import { describe, expect, it } from 'vitest';
import {
  hashRecoveryCode,
  looksLikeTotp,
  newRecoveryCodes,
  normalizeRecoveryCode,
} from './recovery-codes.js';

describe('2FA recovery codes', () => {
  it('makes ten distinct codes of four groups of four Crockford base32 characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
  });

  it('reads a code typed in capitals, with spaces, or with O for 0 and I or L for 1 as the same code', () => {
    const hash = hashRecoveryCode('k7m2-9qhx-3t01-a80d');
    expect(hashRecoveryCode('K7M2 9QHX 3T0I A8OD')).toBe(hash);
    expect(hashRecoveryCode('k7m29qhx3t0la80d')).toBe(hash);
    expect(normalizeRecoveryCode(' k7m2-9qhx-3t01-a80d ')).toBe('k7m29qhx3t01a80d');
  });

  it('refuses what cannot be a recovery code', () => {
    expect(hashRecoveryCode('123456')).toBeNull();
    expect(hashRecoveryCode('k7m2-9qhx-3t01')).toBeNull();
    expect(hashRecoveryCode('k7m2-9qhx-3t01-a8u!')).toBeNull();
  });

  it('tells a 6-digit TOTP code from a recovery code at sign-in', () => {
    expect(looksLikeTotp('123 456')).toBe(true);
    expect(looksLikeTotp('k7m2-9qhx-3t01-a80d')).toBe(false);
  });
});
