import {
  addressStarts,
  isPoolCoin,
  looksLikePayableAddress,
  NETWORKS,
  type Network,
  type PoolCoin,
} from '@manjam/contract';
import type { Coin, PoolNetworks } from './api-types';

export type { PoolNetworks } from './api-types';

/** The message of a refused payout address of a pool coin ("Please enter a valid KAS address"). */
type AddressInvalidKey = `validation.${Lowercase<PoolCoin>}Invalid`;

/** i18n keys of the validation messages (the contract's MESSAGES, translated in en.json/ar.json). */
export type ValidationKey =
  | 'validation.usernameRequired'
  | 'validation.usernameMin'
  | 'validation.emailRequired'
  | 'validation.emailInvalid'
  | 'validation.passwordRequired'
  | 'validation.passwordMin'
  | 'validation.passwordsMismatch'
  | AddressInvalidKey;

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether an address has the form of one the pool pays for this coin: on the pool's network when
 * known, else on any network of the coin. The forms are the ones the server's check requires
 * before it decodes (protocol's address forms, through the contract), so an address the pool pays
 * always passes; the server's check (checksum, program, network) stays the authority.
 */
function looksLikeAddress(value: string, coin: PoolCoin, network: Network | undefined): boolean {
  return (network ? [network] : NETWORKS).some((n) => looksLikePayableAddress(coin, n, value));
}

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

/** How the pool's addresses of a coin start on its network, as a person reads them: "rb1…, G…, R…". */
export function addressStartsText(coin: Coin, networks: PoolNetworks): string | undefined {
  const network = isPoolCoin(coin) ? networks[coin] : undefined;
  if (!isPoolCoin(coin) || !network) return undefined;
  const { bech32, base58 } = addressStarts(coin, network);
  return [...bech32, ...base58].map((start) => `${start}…`).join(', ');
}

/** The wallet rule per coin; only the pool's coins are checked (a listed coin is never paid). */
export function validateWalletAddress(
  address: string,
  coin: Coin,
  networks: PoolNetworks = {},
): ValidationKey | undefined {
  const value = address.trim();
  if (!value || !isPoolCoin(coin) || looksLikeAddress(value, coin, networks[coin])) return undefined;
  return `validation.${coin.toLowerCase() as Lowercase<PoolCoin>}Invalid`;
}

export function validateRegistration(
  form: RegistrationForm,
  networks: PoolNetworks = {},
): RegistrationErrors {
  const errors: RegistrationErrors = {};
  const username = form.username.trim();
  if (!username) errors.username = 'validation.usernameRequired';
  else if (username.length < USERNAME_MIN) errors.username = 'validation.usernameMin';
  const email = validateEmail(form.email);
  if (email) errors.email = email;
  if (!form.password) errors.password = 'validation.passwordRequired';
  else if (form.password.length < PASSWORD_MIN) errors.password = 'validation.passwordMin';
  if (form.confirmPassword !== form.password) errors.confirmPassword = 'validation.passwordsMismatch';
  const wallet = validateWalletAddress(form.walletAddress, form.preferredCoin, networks);
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
