// Each cycle, every coin's pool wallet balance is read here, where the wallet is, and recorded in
// the database (pool_wallet_balances) for the operator console, which may run in another process.
import type { CoinId } from '../config/constants.js';
import { PoolWalletsRepository } from '../db/repositories/pool-wallets.js';
import { chainOf, type AccountingContext } from './context.js';

/**
 * Reads and records a coin's wallet balance. A read or write that fails records nothing (the
 * console keeps the last reading with its time), is logged, and never throws: the cycle goes on.
 */
export async function recordWalletBalance(ctx: AccountingContext, coin: CoinId): Promise<boolean> {
  try {
    const balance = await chainOf(ctx, coin).getWalletBalance();
    await new PoolWalletsRepository(ctx.db).record(coin, balance, ctx.now());
    return true;
  } catch (err) {
    ctx.logger.warn({ coin, err }, 'pool wallet balance not read; the console keeps the last reading');
    return false;
  }
}
