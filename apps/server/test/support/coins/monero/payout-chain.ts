// The Monero family's chain in the payout crash test's child (accounting/payout-child.ts). With
// crash "after-send" the child dies the moment monero-wallet-rpc answered `transfer`, before the
// note and the save; `killWalletPid`: monero-wallet-rpc is killed -9 with it, before it saved the
// transfer (the double-payment window of reconcile.ts).
//   spec keys: "monero": {"daemonUrl","walletUrl","killWalletPid"?}
import { MoneroRpcClient, type MoneroCallOptions } from '../../../../src/coins/monero/rpc.js';
import { MoneroAccountingChain } from '../../../../src/coins/monero/wallet.js';
import { crashing, die, type PayoutChildChain, type PayoutChildSpec } from '../../accounting/payout-crash.js';

/** monero-wallet-rpc as this process sees it: it (and `walletPid`, if given) dies when `transfer` answers. */
class WalletDyingAfterTransfer extends MoneroRpcClient {
  constructor(
    url: string,
    private readonly walletPid: number | undefined,
  ) {
    super(url, 120_000);
  }
  override async call<T = unknown>(
    method: string,
    params: Record<string, unknown> | unknown[] = {},
    options: MoneroCallOptions = {},
  ): Promise<T> {
    const result = await super.call<T>(method, params, options);
    if (method !== 'transfer') return result;
    if (this.walletPid !== undefined) process.kill(this.walletPid, 'SIGKILL');
    return die();
  }
}

export function payoutChain(
  spec: PayoutChildSpec & { monero?: { daemonUrl: string; walletUrl: string; killWalletPid?: number } },
): PayoutChildChain {
  if (!spec.monero) throw new Error('payout child: monero is required');
  const { daemonUrl, walletUrl, killWalletPid } = spec.monero;
  const daemon = new MoneroRpcClient(daemonUrl, 120_000);
  if (spec.crash === 'after-send')
    return {
      chain: new MoneroAccountingChain(daemon, new WalletDyingAfterTransfer(walletUrl, killWalletPid)),
      close: () => undefined,
    };
  const chain = new MoneroAccountingChain(daemon, new MoneroRpcClient(walletUrl, 120_000));
  return { chain: crashing(chain, spec.crash), close: () => undefined };
}
