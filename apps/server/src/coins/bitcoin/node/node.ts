// One coin node as the pool sees it: block templates and submission on the node endpoint,
// payouts on the wallet endpoint. Network-agnostic: the same calls work on mainnet nodes.
import {
  baseUnitsToDecimal,
  COIN_DECIMALS,
  gbtRulesOf,
  nodeAmountToBaseUnits,
  type BlockTemplateRpc,
  type BitcoinFamilyCoin,
} from '@manjam/protocol';
import { RawJsonNumber, RpcClient, type RpcCallOptions, type RpcEndpoint } from '../../../rpc/json-rpc.js';

export type NodeTemplate = BlockTemplateRpc & { longpollid?: string };

export interface BlockHeaderInfo {
  hash: string;
  /** -1 when the block is not on the node's main chain. */
  confirmations: number;
  height: number;
  version: number;
  merkleroot: string;
  time: number;
  /** Median time past ending at this block. */
  mediantime: number;
  /** Core: compact hex string; bcoin: the same value as a number. */
  bits: string | number;
  difficulty: number;
  previousblockhash?: string;
  nextblockhash?: string;
}

export interface MiningInfo {
  blocks: number;
  difficulty: number;
  networkhashps: number;
  chain: string;
}

export interface AddressValidation {
  isvalid: boolean;
  address?: string;
  scriptPubKey?: string;
  iswitness?: boolean;
}

export interface WalletTransaction {
  txid: string;
  confirmations: number;
  blockhash?: string;
  /** Net effect on the wallet, base units (negative for sends). */
  amount: bigint;
  /** Fee paid, base units, negative as nodes report it (absent for receives). */
  fee?: bigint;
  time: number;
}

export interface WalletTransactionEntry {
  txid: string;
  category: string;
  address?: string;
  amount: bigint;
  fee?: bigint;
  confirmations: number;
  blockhash?: string;
  vout?: number;
  time: number;
}

export interface SinceBlock {
  transactions: WalletTransactionEntry[];
  lastblock: string;
}

export interface ChainNodeOptions {
  coin: BitcoinFamilyCoin;
  rpc: RpcEndpoint;
  /** Wallet endpoint (bcoin: its wallet server; Core: /wallet/<name>). Defaults to `rpc`. */
  walletRpc?: RpcEndpoint;
  /** Per-call timeout for ordinary calls (ms). */
  timeoutMs?: number;
}

interface RawWalletTx {
  txid: string;
  confirmations?: number;
  blockhash?: string | null;
  amount: unknown;
  fee?: unknown;
  time?: number;
  category?: string;
  address?: string;
  vout?: number;
}

export class ChainNode {
  readonly coin: BitcoinFamilyCoin;
  readonly rpc: RpcClient;
  readonly wallet: RpcClient;
  private readonly decimals: number;

  constructor(options: ChainNodeOptions) {
    this.coin = options.coin;
    this.decimals = COIN_DECIMALS[options.coin];
    this.rpc = new RpcClient(options.rpc, options.timeoutMs ?? 30_000);
    this.wallet = options.walletRpc
      ? new RpcClient(options.walletRpc, options.timeoutMs ?? 30_000)
      : this.rpc;
  }

  /** With `longpollid` the node holds the call until the template changes (use a long timeout). */
  getBlockTemplate(longpollid?: string, options?: RpcCallOptions): Promise<NodeTemplate> {
    const request: { rules: string[]; longpollid?: string } = { rules: gbtRulesOf(this.coin) };
    if (longpollid) request.longpollid = longpollid;
    return this.rpc.call<NodeTemplate>('getblocktemplate', [request], options);
  }

  /** null when the node accepted it; otherwise its reason ("duplicate", "inconclusive", "high-hash"...). */
  async submitBlock(blockHex: string): Promise<string | null> {
    const result = await this.rpc.call<string | null>('submitblock', [blockHex]);
    return result ?? null;
  }

  getBlockHash(height: number): Promise<string> {
    return this.rpc.call<string>('getblockhash', [height]);
  }

  getBestBlockHash(options?: RpcCallOptions): Promise<string> {
    return this.rpc.call<string>('getbestblockhash', [], options);
  }

  getBlockCount(): Promise<number> {
    return this.rpc.call<number>('getblockcount');
  }

  getBlockHeader(hash: string): Promise<BlockHeaderInfo> {
    return this.rpc.call<BlockHeaderInfo>('getblockheader', [hash, true]);
  }

  getDifficulty(): Promise<number> {
    return this.rpc.call<number>('getdifficulty');
  }

  getMiningInfo(): Promise<MiningInfo> {
    return this.rpc.call<MiningInfo>('getmininginfo');
  }

  validateAddress(address: string): Promise<AddressValidation> {
    return this.rpc.call<AddressValidation>('validateaddress', [address]);
  }

  invalidateBlock(hash: string): Promise<void> {
    return this.rpc.call<void>('invalidateblock', [hash]);
  }

  reconsiderBlock(hash: string): Promise<void> {
    return this.rpc.call<void>('reconsiderblock', [hash]);
  }

  generateToAddress(blocks: number, address: string): Promise<string[]> {
    return this.rpc.call<string[]>('generatetoaddress', [blocks, address], { timeoutMs: 300_000 });
  }

  /** Confirmed wallet balance in base units. */
  async getBalance(): Promise<bigint> {
    return nodeAmountToBaseUnits(await this.wallet.call<unknown>('getbalance'), this.decimals);
  }

  /**
   * Pays every address its amount (base units) in one transaction; resolves with the txid.
   * Amounts travel as exact decimal literals, never through a float.
   */
  async sendMany(amounts: Map<string, bigint>, comment = ''): Promise<string> {
    if (amounts.size === 0) throw new Error('sendMany needs at least one recipient');
    const outputs: Record<string, RawJsonNumber> = {};
    for (const [address, units] of amounts) {
      if (units <= 0n) throw new Error(`sendMany amount for ${address} must be positive (got ${units})`);
      outputs[address] = new RawJsonNumber(baseUnitsToDecimal(units, this.decimals));
    }
    return this.wallet.call<string>('sendmany', ['', outputs, 1, comment]);
  }

  async getTransaction(txid: string): Promise<WalletTransaction> {
    const raw = await this.wallet.call<RawWalletTx>('gettransaction', [txid]);
    return {
      txid: raw.txid,
      confirmations: await this.confirmationsOf(raw),
      ...(raw.blockhash ? { blockhash: raw.blockhash } : {}),
      amount: nodeAmountToBaseUnits(raw.amount, this.decimals),
      ...(raw.fee !== undefined ? { fee: nodeAmountToBaseUnits(raw.fee, this.decimals) } : {}),
      time: raw.time ?? 0,
    };
  }

  /** Paging is the node's own: Core returns the `count` most recent, bcoin the oldest first. */
  async listTransactions(count = 100, skip = 0): Promise<WalletTransactionEntry[]> {
    const raw = await this.wallet.call<RawWalletTx[]>('listtransactions', ['*', count, skip]);
    return raw.map((entry) => this.toEntry(entry));
  }

  /** Wallet transactions since `blockhash` (all when omitted), for payout reconciliation. */
  async listSinceBlock(blockhash?: string): Promise<SinceBlock> {
    const params = blockhash ? [blockhash] : [];
    const raw = await this.wallet.call<{ transactions: RawWalletTx[]; lastblock: string }>(
      'listsinceblock',
      params,
    );
    return { transactions: raw.transactions.map((entry) => this.toEntry(entry)), lastblock: raw.lastblock };
  }

  /** Core reports confirmations; bcoin's wallet only the block hash, so ask the chain. */
  private async confirmationsOf(raw: RawWalletTx): Promise<number> {
    if (raw.confirmations !== undefined) return raw.confirmations;
    if (!raw.blockhash) return 0;
    return Math.max(0, (await this.getBlockHeader(raw.blockhash)).confirmations);
  }

  /** Releases idle keep-alive connections (lets a node shut down at once). */
  close(): void {
    this.rpc.close();
    if (this.wallet !== this.rpc) this.wallet.close();
  }

  private toEntry(raw: RawWalletTx): WalletTransactionEntry {
    return {
      txid: raw.txid,
      category: raw.category ?? 'unknown',
      ...(raw.address ? { address: raw.address } : {}),
      amount: nodeAmountToBaseUnits(raw.amount, this.decimals),
      ...(raw.fee !== undefined ? { fee: nodeAmountToBaseUnits(raw.fee, this.decimals) } : {}),
      confirmations: raw.confirmations ?? 0,
      ...(raw.blockhash ? { blockhash: raw.blockhash } : {}),
      ...(raw.vout !== undefined ? { vout: raw.vout } : {}),
      time: raw.time ?? 0,
    };
  }
}
