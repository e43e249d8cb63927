// The Bitcoin family's wallet for accounting: an adapter over JSON-RPC that works
// with Bitcoin/Litecoin Core and with bcoin. Two bcoin differences are absorbed here:
// - its wallet ignores sendmany comments, so runs are reconciled by their outputs, not by the
//   comment alone;
// - its wallet RPC cannot describe a transaction that pays an address outside the wallet
//   (`gettransaction` and `listtransactions` fail with "Invalid integer value": the fee of such a
//   transaction is unknown to its RPC layer), so wallet transactions are read from its wallet HTTP
//   API instead (same server, same credentials), which describes every output.
import type { AccountingChain, WalletOutput, WalletTransaction } from '../../accounting/chain.js';
import { rpcAmount, unitsFromRpc } from './amounts.js';
import { RpcClient, RpcError, type RpcEndpoint } from '../../rpc/json-rpc.js';
import type { ChainNode } from './node/node.js';

interface RpcDetail {
  address?: string | null;
  category: string;
  amount: number;
  vout: number;
}

interface RpcWalletTx {
  txid?: string;
  /** bcoin leaves it out: derived from the block hash then. */
  confirmations?: number;
  blockhash?: string | null;
  time: number;
  comment?: string;
  details: RpcDetail[];
}

interface RpcListEntry {
  txid: string;
  category: string;
  time: number;
}

/** A transaction as bcoin's wallet HTTP API describes it (GET /wallet/:id/tx/:hash). */
interface BcoinWalletTx {
  hash: string;
  /** Unix seconds the wallet first saw it. */
  mtime: number;
  confirmations: number;
  outputs: { value: number; address: string | null; path: { change: boolean } | null }[];
}

/** bcoin's RPC works on this wallet unless told otherwise (selectwallet). */
const BCOIN_WALLET_ID = 'primary';

/** bcoin wallet outputs that are not change: paid to others or to the wallet's own receive addresses. */
function fromBcoin(raw: BcoinWalletTx): WalletTransaction {
  const outputs: WalletOutput[] = [];
  for (const output of raw.outputs) {
    if (!output.address || output.path?.change === true) continue;
    outputs.push({ address: output.address, amount: BigInt(output.value) });
  }
  return { txid: raw.hash, confirmations: raw.confirmations, time: raw.mtime, comment: undefined, outputs };
}

function toWalletTransaction(txid: string, raw: RpcWalletTx, confirmations: number): WalletTransaction {
  const byVout = new Map<number, WalletOutput>();
  for (const detail of raw.details) {
    if (!detail.address || (detail.category !== 'send' && detail.category !== 'receive')) continue;
    byVout.set(detail.vout, { address: detail.address, amount: unitsFromRpc(Math.abs(detail.amount)) });
  }
  return {
    txid,
    confirmations,
    time: raw.time,
    comment: raw.comment,
    outputs: [...byVout.entries()].sort((a, b) => a[0] - b[0]).map(([, output]) => output),
  };
}

export class RpcAccountingChain implements AccountingChain {
  /** Whether the node is bcoin (its agent string), asked once. */
  private bcoin: Promise<boolean> | undefined;

  constructor(
    private readonly node: RpcClient,
    private readonly wallet: RpcClient,
  ) {}

  static fromEndpoints(
    rpc: RpcEndpoint,
    walletRpc: RpcEndpoint = rpc,
    timeoutMs = 30_000,
  ): RpcAccountingChain {
    return new RpcAccountingChain(new RpcClient(rpc, timeoutMs), new RpcClient(walletRpc, timeoutMs));
  }

  /** Accounting over the chain module's node (its node and wallet RPC clients). */
  static fromNode(node: Pick<ChainNode, 'rpc' | 'wallet'>): RpcAccountingChain {
    return new RpcAccountingChain(node.rpc, node.wallet);
  }

  getBlockCount(): Promise<number> {
    return this.node.call<number>('getblockcount');
  }

  async holdsBlock(height: number, hash: string): Promise<boolean> {
    return (await this.node.call<string>('getblockhash', [height])) === hash;
  }

  async getWalletBalance(): Promise<bigint> {
    return unitsFromRpc(await this.wallet.call<number>('getbalance', ['*', 1]));
  }

  async sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string> {
    const amounts: Record<string, unknown> = {};
    for (const [address, units] of outputs) amounts[address] = rpcAmount(units);
    return this.wallet.call<string>('sendmany', ['', amounts, 1, comment]);
  }

  async getWalletTransaction(txid: string): Promise<WalletTransaction | undefined> {
    if (await this.isBcoin()) {
      const raw = await this.wallet.getJson<BcoinWalletTx>(`/wallet/${BCOIN_WALLET_ID}/tx/${txid}`);
      return raw ? fromBcoin(raw) : undefined;
    }
    try {
      const raw = await this.wallet.call<RpcWalletTx>('gettransaction', [txid]);
      return toWalletTransaction(txid, raw, await this.confirmationsOf(raw));
    } catch (error) {
      if (
        error instanceof RpcError &&
        error.kind === 'rpc' &&
        (error.code === -5 || /not found|not in wallet/i.test(error.message))
      ) {
        return undefined;
      }
      throw error;
    }
  }

  async findWalletTransactions(sinceUnixSeconds: number): Promise<WalletTransaction[]> {
    if (await this.isBcoin()) {
      // The range is over the time the wallet first saw each transaction.
      const path = `/wallet/${BCOIN_WALLET_ID}/tx/range?start=${Math.max(0, Math.floor(sinceUnixSeconds))}`;
      const raws = (await this.wallet.getJson<BcoinWalletTx[]>(path)) ?? [];
      return raws.map(fromBcoin).filter((tx) => tx.time >= sinceUnixSeconds);
    }
    // Core lists the newest `count` transactions; bcoin lists the oldest `count` from `skip`.
    // Asking for all of them (txcount) gives the same answer on both; this runs only when a
    // payout run was interrupted, so its cost does not matter.
    const info = await this.wallet.call<{ txcount?: number }>('getwalletinfo');
    const count = Math.max(100, (info.txcount ?? 0) + 100);
    const entries = await this.wallet.call<RpcListEntry[]>('listtransactions', ['*', count, 0]);
    const txids = new Set<string>();
    for (const entry of entries) {
      if (entry.time < sinceUnixSeconds) continue;
      if (entry.category === 'generate' || entry.category === 'immature' || entry.category === 'orphan')
        continue;
      txids.add(entry.txid);
    }
    const found: WalletTransaction[] = [];
    for (const txid of txids) {
      const tx = await this.getWalletTransaction(txid);
      if (tx) found.push(tx);
    }
    return found;
  }

  private isBcoin(): Promise<boolean> {
    this.bcoin ??= this.node.call<{ subversion?: string }>('getnetworkinfo').then(
      (info) => /^\/bcoin:/.test(info.subversion ?? ''),
      (error: unknown) => {
        this.bcoin = undefined; // asked again next time
        throw error;
      },
    );
    return this.bcoin;
  }

  /** Core reports confirmations; bcoin only the block hash: -1 when that block left the main chain. */
  private async confirmationsOf(raw: RpcWalletTx): Promise<number> {
    if (typeof raw.confirmations === 'number') return raw.confirmations;
    if (!raw.blockhash) return 0;
    const header = await this.node.call<{ confirmations: number }>('getblockheader', [raw.blockhash, true]);
    return header.confirmations;
  }

  close(): void {
    this.node.close();
    this.wallet.close();
  }
}
