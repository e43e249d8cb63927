// Each coin's brand colour, where the revenue tables mark a coin (a listed coin without one is
// shown in the text colour).
import type { AccountCoin } from '@manjam/contract';

const COIN_COLOURS: Partial<Record<AccountCoin, string>> = {
  BTC: '#f7931a',
  LTC: '#a6a9aa',
  XMR: '#ff6600',
  KDA: '#ed098f',
  KAS: '#49eacb',
};

/** The coin's colour, or undefined for a coin without one. */
export function coinColour(coin: string): string | undefined {
  return Object.hasOwn(COIN_COLOURS, coin) ? COIN_COLOURS[coin as AccountCoin] : undefined;
}
