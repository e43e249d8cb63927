// Each coin's pool wallet balance is read here, where the wallet is, and recorded in the database
// (pool_wallet_balances) for the operator console, which may run in another process. It is read
// on the accounting cycle at most once a minute per coin (a wallet call is not free: Monero's
// refreshes the wallet first) and waited for at most 15 s, so a slow wallet delays no cycle long.
import type { CoinId } from '../config/constants.js';
import { PoolWalletsRepository } from '../db/repositories/pool-wallets.js';
import { chainOf, type AccountingContext } from './context.js';

export const WALLET_READ_EVERY_MS = 60_000;
export const WALLET_READ_TIMEOUT_MS = 15_000;

export class WalletBalances {
  /** When each coin's wallet was last asked (answered or not). */
  private readonly asked = new Map<CoinId, number>();

  constructor(private readonly ctx: AccountingContext) {}

  /**
   * Reads and records a coin's wallet balance when a minute has passed since it was last asked.
   * A read or write that fails or times out records nothing (the console keeps the last reading
   * with its time), is logged, and never throws: the cycle goes on.
   */
  async record(coin: CoinId): Promise<void> {
    const now = this.ctx.now();
    const last = this.asked.get(coin);
    if (last !== undefined && now.getTime() - last < WALLET_READ_EVERY_MS) return;
    this.asked.set(coin, now.getTime());
    let timer: NodeJS.Timeout | undefined;
    try {
      const balance = await Promise.race([
        chainOf(this.ctx, coin).getWalletBalance(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${WALLET_READ_TIMEOUT_MS} ms`)),
            WALLET_READ_TIMEOUT_MS,
          );
        }),
      ]);
      await new PoolWalletsRepository(this.ctx.db).record(coin, balance, now);
    } catch (err) {
      this.ctx.logger.warn({ coin, err }, 'pool wallet balance not read; the console keeps the last reading');
    } finally {
      clearTimeout(timer);
    }
  }
}
