import { MESSAGES } from '@manjam/contract';
import { coinParams, isValidAddress } from '@manjam/protocol';
import type { Config } from '../../config/index.js';

/**
 * Checks a wallet address for a coin: BTC and LTC are decoded for real (checksum, version or
 * bech32 prefix of the configured network); other coins Manjam does not mine only get a shape check.
 * Answers the field message, or null when the address is fine.
 */
export function addressProblem(address: string, coin: string, config: Pick<Config, 'chains'>): string | null {
  if (coin === 'BTC' || coin === 'LTC') {
    const params = coinParams(coin, config.chains[coin].network);
    if (isValidAddress(address, params)) return null;
    return coin === 'BTC' ? MESSAGES.btcAddressInvalid : MESSAGES.ltcAddressInvalid;
  }
  return /^[A-Za-z0-9:]{20,120}$/.test(address) ? null : MESSAGES.addressInvalid;
}
