// What accounting needs of Monero, over monerod (heights, block ids) and monero-wallet-rpc (the
// pool wallet). The decisions that differ from the Bitcoin-family adapter (chain.ts):
// - ONE `transfer` per run, never `transfer_split`: a run keeps one txid. A Monero transaction
//   holds at most 16 outputs (BULLETPROOF_PLUS_MAX_OUTPUTS, a consensus rule) and the wallet
//   always adds its change output, so 15 destinations; `transfer` refuses more ("Transaction would
//   be too large", -18, seen on monero-wallet-rpc 0.18). Runs are cut to that upstream
//   (`maxOutputsPerSend`, payout-plan's limitToOutputs); the rest are paid by the next run. An
//   integrated address is paid by a transaction of its own (`paysAlone`): its payment id is
//   encrypted to the transaction's single destination.
// - No sendmany comment: right after the transfer the run's comment becomes the transaction's
//   note (`set_tx_notes`) and the wallet file is saved (`store`), so what the wallet knows of the
//   transfer (its destinations, its note) survives a restart of monero-wallet-rpc. A process dying
//   between the transfer and the note leaves a transaction without it: reconcile then finds it by
//   its outputs, i.e. the destinations monero-wallet-rpc keeps for every transfer it made.
// - Amounts are atomic units (10^-12 XMR) read from the JSON text as bigint (up to 2^64), never
//   through a double; amounts sent are written as exact JSON integers.
// - The balance is the UNLOCKED balance after a refresh: what a transfer can spend now (the change
//   of a transfer stays locked for 10 blocks, coinbases for 60).
// - monerod's get_block_count is the number of blocks; getBlockCount answers the tip height.
// - A transfer the wallet lost its record of (monero-wallet-rpc killed between `transfer` and
//   `store`) is unknown to the restarted wallet while it is only in monerod's pool (get_transfers
//   lists nothing; its inputs still show as unspent): `untoldPoolSpends` finds it by the key images
//   it spends (monerod's /get_transaction_pool `spent_key_images`), matched against the wallet's
//   own (`incoming_transfers`, `key_image`), less the transfers the wallet knows it sent. monerod
//   hides stem-phase (Dandelion++) and unrelayed transactions from a restricted RPC: the daemon
//   the pool reads is its own node, unrestricted, the one monero-wallet-rpc sends through.
import { parseMoneroAddress } from '@manjam/protocol/monero';
import { RawJsonNumber, RpcError } from '../../rpc/json-rpc.js';
import { MoneroRpcClient } from './rpc.js';
import type { AccountingChain, WalletOutput, WalletTransaction } from '../../accounting/chain.js';

/** Outputs of one Monero transaction (BULLETPROOF_PLUS_MAX_OUTPUTS, cryptonote_config.h). */
export const MONERO_MAX_TX_OUTPUTS = 16;
/** Destinations of one `transfer`: every output but the change. */
export const MONERO_MAX_DESTINATIONS = MONERO_MAX_TX_OUTPUTS - 1;
/** monero-wallet-rpc's WALLET_RPC_ERROR_CODE_WRONG_TXID: the wallet has no such transaction. */
const WRONG_TXID = -8;
/** The keys of monero-wallet-rpc answers that carry atomic amounts (read as bigint). */
const AMOUNT_KEYS = ['amount', 'fee', 'balance', 'unlocked_balance'] as const;
/** Transfer categories of what the wallet sent (get_transfers / get_transfer_by_txid `type`). */
const SENT_TYPES = new Set(['out', 'pending', 'failed']);

/** monerod's /get_transaction_pool, the parts read here (both absent when the pool is empty). */
interface MoneroPool {
  /** Each key image spent by pool transactions (`id_hash`) and the transactions spending it. */
  spent_key_images?: { id_hash: string; txs_hashes: string[] }[];
}

/** A transfer as monero-wallet-rpc describes it (get_transfers, get_transfer_by_txid). */
export interface MoneroTransfer {
  txid: string;
  /** in, out, pending (sent, not mined), failed, pool (incoming, not mined), block (coinbase). */
  type: string;
  address: string;
  amount: bigint;
  fee?: bigint;
  /** What the wallet sent to whom (transfers this wallet made). */
  destinations?: { address: string; amount: bigint }[];
  /** Present once mined (0.18 reports it for in and out). */
  confirmations?: number;
  height: number;
  timestamp: number;
  note?: string;
}

/** A wallet transfer in accounting's terms: sent ones by their destinations, received ones by the wallet's address. */
export function fromMoneroTransfer(entry: MoneroTransfer): WalletTransaction {
  const sent = SENT_TYPES.has(entry.type);
  const outputs: WalletOutput[] = sent
    ? (entry.destinations ?? []).map((d) => ({ address: d.address, amount: d.amount }))
    : [{ address: entry.address, amount: entry.amount }];
  const confirmations =
    entry.type === 'failed'
      ? -1
      : entry.type === 'pending' || entry.type === 'pool'
        ? 0
        : (entry.confirmations ?? 0);
  return {
    txid: entry.txid,
    confirmations,
    time: entry.timestamp,
    comment: entry.note ? entry.note : undefined,
    outputs,
    // Found in the chain after the wallet lost its own record: `amount` is what it paid out
    // (what it spent, less its change and the fee).
    ...(sent && outputs.length === 0 ? { untold: { amount: entry.amount } } : {}),
  };
}

/** One entry per txid, the sending side first (a payment to the wallet itself is listed twice). */
function oneEntryPerTxid(entries: readonly MoneroTransfer[]): MoneroTransfer[] {
  const byTxid = new Map<string, MoneroTransfer>();
  for (const entry of entries) {
    const known = byTxid.get(entry.txid);
    if (!known || (!SENT_TYPES.has(known.type) && SENT_TYPES.has(entry.type))) byTxid.set(entry.txid, entry);
  }
  return [...byTxid.values()];
}

export class MoneroAccountingChain implements AccountingChain {
  readonly maxOutputsPerSend = MONERO_MAX_DESTINATIONS;

  /**
   * An integrated address's payment id is encrypted to the transaction's one destination: with a
   * second destination monero-wallet-rpc answers "transaction was not constructed", with a second
   * integrated address -5 "A single payment id is allowed per transaction".
   */
  paysAlone(address: string): boolean {
    return parseMoneroAddress(address)?.kind === 'integrated';
  }

  /**
   * `daemon`: monerod's RPC root; `wallet`: monero-wallet-rpc's root with the pool wallet open;
   * `accountIndex`: the wallet account that pays (its balance, its transfers).
   */
  constructor(
    private readonly daemon: MoneroRpcClient,
    private readonly wallet: MoneroRpcClient,
    private readonly accountIndex = 0,
  ) {}

  /** Over RPC roots such as http://127.0.0.1:18081 and http://127.0.0.1:18083 (no login). */
  static fromUrls(daemonUrl: string, walletUrl: string, timeoutMs = 120_000): MoneroAccountingChain {
    return new MoneroAccountingChain(
      new MoneroRpcClient(daemonUrl, timeoutMs),
      new MoneroRpcClient(walletUrl, timeoutMs),
    );
  }

  async getBlockCount(): Promise<number> {
    const { count } = await this.daemon.call<{ count: number }>('get_block_count');
    return count - 1;
  }

  async holdsBlock(height: number, hash: string): Promise<boolean> {
    const { block_header: header } = await this.daemon.call<{ block_header: { hash: string } }>(
      'get_block_header_by_height',
      { height },
    );
    return header.hash === hash;
  }

  async getWalletBalance(): Promise<bigint> {
    await this.wallet.call('refresh');
    const { unlocked_balance: unlocked } = await this.wallet.call<{ unlocked_balance: bigint }>(
      'get_balance',
      { account_index: this.accountIndex },
      { bigints: AMOUNT_KEYS },
    );
    return unlocked;
  }

  async sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string> {
    if (outputs.size > this.maxOutputsPerSend)
      throw new RpcError(
        'rpc',
        'transfer',
        `${outputs.size} destinations: one Monero transaction pays at most ${this.maxOutputsPerSend}`,
      );
    const destinations = [...outputs].map(([address, amount]) => {
      if (amount <= 0n) throw new RangeError('an amount sent must be positive');
      return { address, amount: new RawJsonNumber(amount.toString()) };
    });
    // The wallet spends what it has seen: one just reopened, or behind the node, would refuse
    // with "not enough unlocked money" until its background refresh catches up.
    await this.wallet.call('refresh');
    const { tx_hash: txid } = await this.wallet.call<{ tx_hash: string }>('transfer', {
      destinations,
      account_index: this.accountIndex,
    });
    // The coins are gone: whatever happens to the note or the save, the run is recorded with
    // this txid (reconcile matches a transaction without its note by its outputs).
    await this.wallet.call('set_tx_notes', { txids: [txid], notes: [comment] }).catch(() => undefined);
    await this.wallet.call('store').catch(() => undefined);
    return txid;
  }

  async getWalletTransaction(txid: string): Promise<WalletTransaction | undefined> {
    await this.wallet.call('refresh');
    try {
      const { transfers } = await this.wallet.call<{ transfers: MoneroTransfer[] }>(
        'get_transfer_by_txid',
        { txid, account_index: this.accountIndex },
        { bigints: AMOUNT_KEYS },
      );
      const [entry] = oneEntryPerTxid(transfers);
      return entry ? fromMoneroTransfer(entry) : undefined;
    } catch (error) {
      if (error instanceof RpcError && error.kind === 'rpc' && error.code === WRONG_TXID) return undefined;
      throw error;
    }
  }

  async findWalletTransactions(sinceUnixSeconds: number): Promise<WalletTransaction[]> {
    await this.wallet.call('refresh');
    const lists = await this.wallet.call<
      Partial<Record<'out' | 'pending' | 'failed' | 'pool', MoneroTransfer[]>>
    >(
      'get_transfers',
      { out: true, pending: true, failed: true, pool: true, account_index: this.accountIndex },
      { bigints: AMOUNT_KEYS },
    );
    const entries = [
      ...(lists.out ?? []),
      ...(lists.pending ?? []),
      ...(lists.failed ?? []),
      ...(lists.pool ?? []),
    ];
    return oneEntryPerTxid(entries)
      .filter((entry) => entry.timestamp >= sinceUnixSeconds)
      .map(fromMoneroTransfer);
  }

  async untoldPoolSpends(): Promise<string[]> {
    await this.wallet.call('refresh');
    const { transfers: outputs = [] } = await this.wallet.call<{ transfers?: { key_image: string }[] }>(
      'incoming_transfers',
      { transfer_type: 'all', account_index: this.accountIndex },
    );
    // A wallet without its spend key has no key images: it cannot tell its spends (nor send).
    if (outputs.some((output) => !output.key_image))
      throw new Error('the pool wallet does not know the key images of its outputs (view-only?)');
    // What the wallet knows it sent and is not mined yet (a transfer it only sees arriving, `pool`,
    // may be one it sent itself and forgot: not known).
    const { pending = [] } = await this.wallet.call<{ pending?: MoneroTransfer[] }>('get_transfers', {
      pending: true,
      account_index: this.accountIndex,
    });
    const known = new Set(pending.map((entry) => entry.txid));
    const ours = new Set(outputs.map((output) => output.key_image));
    const { spent_key_images: spent = [] } =
      await this.daemon.callEndpoint<MoneroPool>('get_transaction_pool');
    const untold = new Set<string>();
    for (const image of spent) {
      if (!ours.has(image.id_hash)) continue;
      for (const txid of image.txs_hashes) if (!known.has(txid)) untold.add(txid);
    }
    return [...untold].sort();
  }
}
