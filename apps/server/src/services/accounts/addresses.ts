import { addressInvalidKey, MESSAGES } from '@manjam/contract';
import { isCoin, isPayableAddress } from '@manjam/protocol';
import type { Config } from '../../config/index.js';

/** A coin an account may name but the pool does not mine (DOGE, KDA): shape only, never paid. */
const LISTED_COIN_ADDRESS = /^[A-Za-z0-9:]{20,120}$/;

/**
 * Checks a wallet address for a coin at registration and in Settings. A coin the pool mines is
 * decoded for real by its family (protocol's isPayableAddress, the same check as the Stratum login
 * and payout planning) on the configured network of that coin; a coin the pool only lists gets a
 * shape check (nothing is ever paid to it). Answers the field message, or null when it is fine.
 */
export function addressProblem(address: string, coin: string, config: Pick<Config, 'chains'>): string | null {
  if (isCoin(coin)) {
    return isPayableAddress(coin, config.chains[coin].network, address)
      ? null
      : MESSAGES[addressInvalidKey(coin)];
  }
  return LISTED_COIN_ADDRESS.test(address) ? null : MESSAGES.addressInvalid;
}
