// The Bitcoin family's chain in the payout crash test's child (accounting/payout-child.ts): the
// node's RPC and its wallet RPC.
//   spec keys: "rpc", "walletRpc"
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { ChainNode } from '../../../../src/coins/bitcoin/node/node.js';
import { RpcAccountingChain } from '../../../../src/coins/bitcoin/wallet.js';
import type { RpcEndpoint } from '../../../../src/rpc/json-rpc.js';
import { crashing, type PayoutChildChain, type PayoutChildSpec } from '../../accounting/payout-crash.js';

export function payoutChain(
  spec: PayoutChildSpec & { rpc?: RpcEndpoint; walletRpc?: RpcEndpoint },
): PayoutChildChain {
  if (!spec.rpc || !spec.walletRpc) throw new Error('payout child: rpc and walletRpc are required');
  const node = new ChainNode({
    coin: spec.coin as BitcoinFamilyCoin,
    rpc: spec.rpc,
    walletRpc: spec.walletRpc,
  });
  const chain = RpcAccountingChain.fromNode(node);
  return { chain: crashing(chain, spec.crash), close: () => node.close() };
}
