import type { Coin } from './api-types';

/** i18n keys of the validation messages (the contract's MESSAGES, translated in en.json/ar.json). */
export type ValidationKey =
  | 'validation.usernameRequired'
  | 'validation.usernameMin'
  | 'validation.emailRequired'
  | 'validation.emailInvalid'
  | 'validation.passwordRequired'
  | 'validation.passwordMin'
  | 'validation.passwordsMismatch'
  | 'validation.btcInvalid'
  | 'validation.ltcInvalid';

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Seed: 1, 3 or bc1 followed by 25 to 42 letters or digits. */
const BTC_PATTERN = /^(1|3|bc1)[a-zA-Z0-9]{25,42}$/;
/** Litecoin: legacy L/M/3 addresses, or bech32 ltc1 (up to the 59 characters of P2WSH). */
const LTC_PATTERN = /^([LM3][a-zA-Z0-9]{25,42}|ltc1[a-zA-Z0-9]{25,59})$/;

export interface RegistrationForm {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  walletAddress: string;
  preferredCoin: Coin;
}
export type RegistrationErrors = Partial<Record<keyof RegistrationForm, ValidationKey>>;

export function validateEmail(email: string): ValidationKey | undefined {
  if (!email.trim()) return 'validation.emailRequired';
  return EMAIL_PATTERN.test(email.trim()) ? undefined : 'validation.emailInvalid';
}

/** The wallet rule per coin; only BTC and LTC are checked (the seed checks no other coin). */
export function validateWalletAddress(address: string, coin: Coin): ValidationKey | undefined {
  const value = address.trim();
  if (!value) return undefined;
  if (coin === 'BTC' && !BTC_PATTERN.test(value)) return 'validation.btcInvalid';
  if (coin === 'LTC' && !LTC_PATTERN.test(value)) return 'validation.ltcInvalid';
  return undefined;
}

export function validateRegistration(form: RegistrationForm): RegistrationErrors {
  const errors: RegistrationErrors = {};
  const username = form.username.trim();
  if (!username) errors.username = 'validation.usernameRequired';
  else if (username.length < USERNAME_MIN) errors.username = 'validation.usernameMin';
  const email = validateEmail(form.email);
  if (email) errors.email = email;
  if (!form.password) errors.password = 'validation.passwordRequired';
  else if (form.password.length < PASSWORD_MIN) errors.password = 'validation.passwordMin';
  if (form.confirmPassword !== form.password) errors.confirmPassword = 'validation.passwordsMismatch';
  const wallet = validateWalletAddress(form.walletAddress, form.preferredCoin);
  if (wallet) errors.walletAddress = wallet;
  return errors;
}

export interface LoginForm {
  email: string;
  password: string;
}
export type LoginErrors = Partial<Record<keyof LoginForm, ValidationKey>>;

/** Seed: email required, password required (no format check at login). */
export function validateLogin(form: LoginForm): LoginErrors {
  const errors: LoginErrors = {};
  if (!form.email.trim()) errors.email = 'validation.emailRequired';
  if (!form.password) errors.password = 'validation.passwordRequired';
  return errors;
}

export function hasErrors(errors: object): boolean {
  return Object.values(errors).some(Boolean);
}
