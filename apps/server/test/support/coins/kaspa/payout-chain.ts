// The Kaspa family's chain in the payout crash test's child (accounting/payout-child.ts): kaspad's
// gRPC and the pool wallet's kaspawallet daemon, with its password and fee rate.
//   spec keys: "kaspa": {"rpcAddress","walletAddress","password","exactFeeRate"}
import { KaspadClient } from '../../../../src/coins/kaspa/kaspad-client.js';
import { KaspaWalletClient } from '../../../../src/coins/kaspa/kaspawallet-client.js';
import { KaspaAccountingChain } from '../../../../src/coins/kaspa/wallet.js';
import { crashing, type PayoutChildChain, type PayoutChildSpec } from '../../accounting/payout-crash.js';

export function payoutChain(
  spec: PayoutChildSpec & {
    kaspa?: { rpcAddress: string; walletAddress: string; password: string; exactFeeRate: number };
  },
): PayoutChildChain {
  if (!spec.kaspa) throw new Error('payout child: kaspa is required');
  const { rpcAddress, walletAddress, password, exactFeeRate } = spec.kaspa;
  const node = new KaspadClient({ address: rpcAddress });
  const wallet = new KaspaWalletClient(walletAddress);
  const chain = new KaspaAccountingChain(node, wallet, { password, feePolicy: { exactFeeRate } });
  return {
    chain: crashing(chain, spec.crash),
    close: () => {
      node.close();
      wallet.close();
    },
  };
}
