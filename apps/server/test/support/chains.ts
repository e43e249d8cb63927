// Test support: the chains.<COIN> sections that switch off every coin a test does not run.
import { COINS, type Coin } from '@manjam/protocol';

/** `{ <COIN>: { enabled: false } }` for every coin of the coin table but those in `running`. */
export function chainsOffBut(...running: readonly Coin[]): Partial<Record<Coin, { enabled: false }>> {
  return Object.fromEntries(
    COINS.filter((coin) => !running.includes(coin)).map((coin) => [coin, { enabled: false } as const]),
  );
}
