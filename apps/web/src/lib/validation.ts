import { addressStarts, familyOf, isPoolCoin, NETWORKS, type Network, type PoolCoin } from '@manjam/contract';
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
  | 'validation.ltcInvalid'
  | 'validation.xmrInvalid'
  | 'validation.kasInvalid';

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A base58check address (25 bytes) is 26 to 35 characters of the base58 alphabet. */
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{26,35}$/;
/** A Monero address: 95 characters of Monero's base58 (106 for an integrated one). */
const MONERO_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{95}([1-9A-HJ-NP-Za-km-z]{11})?$/;
/** After "hrp1": witness version, a 20- or 32-byte program and the checksum (39 to 59 characters). */
const BECH32_DATA = /^[02-9ac-hj-np-z]{39,59}$/;

/** The network the pool runs each of its coins on (from /api/pool/stats), when known. */
export type PoolNetworks = Partial<Record<PoolCoin, Network>>;

/**
 * Whether an address looks like one the pool pays for this coin: on the pool's network when known,
 * else on any network of the coin. Prefixes come from the protocol's network parameters through
 * the contract; the server's check (checksum, program, network) stays the authority.
 */
function looksLikeAddress(value: string, coin: PoolCoin, network: Network | undefined): boolean {
  const starts = (network ? [network] : NETWORKS).map((n) => addressStarts(coin, n));
  const lower = value.toLowerCase();
  const oneCase = value === lower || value === value.toUpperCase();
  return starts.some(
    ({ bech32, base58 }) =>
      (oneCase &&
        bech32.some((prefix) => lower.startsWith(prefix) && BECH32_DATA.test(lower.slice(prefix.length)))) ||
      ((familyOf(coin) === 'monero' ? MONERO_ADDRESS : BASE58_ADDRESS).test(value) &&
        base58.some((lead) => value.startsWith(lead))),
  );
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

/** The line on address kinds under a payout address field, for Monero (95 or 106 characters). */
export function addressKindsKey(coin: Coin): 'validation.xmrKinds' | undefined {
  return isPoolCoin(coin) && familyOf(coin) === 'monero' ? 'validation.xmrKinds' : undefined;
}

/** The wallet rule per coin; only the pool's coins (BTC, LTC) are checked (the seed checks no other coin). */
export function validateWalletAddress(
  address: string,
  coin: Coin,
  networks: PoolNetworks = {},
): ValidationKey | undefined {
  const value = address.trim();
  if (!value || !isPoolCoin(coin) || looksLikeAddress(value, coin, networks[coin])) return undefined;
  const invalid = {
    BTC: 'validation.btcInvalid',
    LTC: 'validation.ltcInvalid',
    XMR: 'validation.xmrInvalid',
    KAS: 'validation.kasInvalid',
  } as const;
  return invalid[coin];
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
