// A test's own transfer from a dev-chain wallet. monero-wallet-rpc asks monerod for the fork
// heights before it builds a transaction; when monerod does not answer in time (a loaded 2-core
// machine, the node busy adding a block) the wallet refuses with "Failed to get earliest fork
// height" and builds nothing, so asking again is safe. Any other refusal is the test's answer.
import { setTimeout as delay } from 'node:timers/promises';
import { RpcError } from '../../../../src/rpc/json-rpc.js';
import type { MoneroRpcClient } from '../../../../src/coins/monero/rpc.js';

const WALLET_COULD_NOT_ASK_NODE = /earliest fork height|daemon is busy|no connection to daemon/i;

export async function transferWhenNodeAnswers<T>(
  wallet: MoneroRpcClient,
  params: Record<string, unknown>,
  withinMs = 30_000,
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      return await wallet.call<T>('transfer', params);
    } catch (error) {
      const transient = error instanceof RpcError && WALLET_COULD_NOT_ASK_NODE.test(error.message);
      if (!transient || Date.now() > until) throw error;
      await delay(500);
    }
  }
}
