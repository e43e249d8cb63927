// A separate accounting process for the crash test: runs one payout run against the given
// database and node, prints its result as one JSON line, and exits. With crash "after-send" it
// SIGKILLs itself right after sendmany returns (XMR: the moment monero-wallet-rpc answered
// `transfer`, before the note and the save); with "before-send", once the run's intent is
// recorded and before sendmany reaches the node (the fault is injected into the chain it hands
// to accounting, not switched on inside accounting). XMR's `killWalletPid`: monero-wallet-rpc is
// killed -9 with it, before it saved the transfer (the double-payment window of reconcile.ts).
// KAS: kaspad's gRPC and the pool wallet's kaspawallet daemon, with its password and fee rate.
//   env MANJAM_PAYOUT_CHILD = {"coin","databaseUrl","schema","rpc","walletRpc","monero"?,"kaspa"?,"crash"?}
import { pino } from 'pino';
import { ChainNode } from '../../../src/coins/bitcoin/node/node.js';
import type { RpcEndpoint } from '../../../src/rpc/json-rpc.js';
import { parseConfig, type CoinId } from '../../../src/config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { openDatabase } from '../../../src/db/index.js';
import { MoneroRpcClient, type MoneroCallOptions } from '../../../src/coins/monero/rpc.js';
import { PoolEvents } from '../../../src/events.js';
import { startAccounting, type AccountingChain } from '../../../src/accounting/index.js';
import { RpcAccountingChain } from '../../../src/coins/bitcoin/wallet.js';
import { MoneroAccountingChain } from '../../../src/coins/monero/wallet.js';
import { KaspadClient } from '../../../src/coins/kaspa/kaspad-client.js';
import { KaspaWalletClient } from '../../../src/coins/kaspa/kaspawallet-client.js';
import { KaspaAccountingChain } from '../../../src/coins/kaspa/wallet.js';

type Crash = 'before-send' | 'after-send';

interface ChildSpec {
  coin: CoinId;
  databaseUrl: string;
  schema: string;
  rpc?: RpcEndpoint;
  walletRpc?: RpcEndpoint;
  monero?: { daemonUrl: string; walletUrl: string; killWalletPid?: number };
  kaspa?: { rpcAddress: string; walletAddress: string; password: string; exactFeeRate: number };
  crash?: Crash;
}

const die = (): Promise<never> => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
};

/** The accounting chain, dying by SIGKILL just before sendmany or the moment it answered. */
function crashing(chain: AccountingChain, when: Crash): AccountingChain {
  const sendMany = chain.sendMany.bind(chain);
  chain.sendMany = async (outputs, comment) => {
    if (when === 'after-send') await sendMany(outputs, comment);
    return die();
  };
  return chain;
}

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

function chainOf(spec: ChildSpec): { chain: AccountingChain; close: () => void } {
  if (spec.monero) {
    const { daemonUrl, walletUrl, killWalletPid } = spec.monero;
    const daemon = new MoneroRpcClient(daemonUrl, 120_000);
    if (spec.crash === 'after-send')
      return {
        chain: new MoneroAccountingChain(daemon, new WalletDyingAfterTransfer(walletUrl, killWalletPid)),
        close: () => undefined,
      };
    const chain = new MoneroAccountingChain(daemon, new MoneroRpcClient(walletUrl, 120_000));
    return { chain: spec.crash ? crashing(chain, spec.crash) : chain, close: () => undefined };
  }
  if (spec.kaspa) {
    const { rpcAddress, walletAddress, password, exactFeeRate } = spec.kaspa;
    const node = new KaspadClient({ address: rpcAddress });
    const wallet = new KaspaWalletClient(walletAddress);
    const chain = new KaspaAccountingChain(node, wallet, { password, feePolicy: { exactFeeRate } });
    return {
      chain: spec.crash ? crashing(chain, spec.crash) : chain,
      close: () => {
        node.close();
        wallet.close();
      },
    };
  }
  if (!spec.rpc || !spec.walletRpc) throw new Error('payout child: rpc and walletRpc are required');
  const node = new ChainNode({
    coin: spec.coin as BitcoinFamilyCoin,
    rpc: spec.rpc,
    walletRpc: spec.walletRpc,
  });
  const chain = RpcAccountingChain.fromNode(node);
  return { chain: spec.crash ? crashing(chain, spec.crash) : chain, close: () => node.close() };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.MANJAM_PAYOUT_CHILD ?? '') as ChildSpec;
  const db = await openDatabase({ databaseUrl: spec.databaseUrl, schema: spec.schema });
  const { chain, close } = chainOf(spec);
  const service = await startAccounting({
    config: parseConfig({}),
    db,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    chains: new Map([[spec.coin, chain]]),
    loop: false,
  });
  const results = await service.runPayouts(spec.coin);
  process.stdout.write(
    JSON.stringify(results, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) + '\n',
  );
  await service.stop();
  close();
  await db.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`payout-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
