// What accounting needs of Kaspa, over kaspad (gRPC, --utxoindex) and the pool's kaspawallet
// daemon. The decisions that differ from the other families (coins/bitcoin/wallet.ts,
// coins/monero/wallet.ts):
// - HEIGHT is the DAA score. A found block is recorded at its template's DAA score
//   (stratum/found-block.ts) and the tip is the virtual DAA score, so depth (confirmations,
//   coinbase maturity) is counted in DAA score, the unit of Kaspa's own coinbase maturity.
// - HELD means merged as blue (dag-reader.ts): a Kaspa block's reward is paid by the coinbase of
//   the chain block that merges it, and only if it is merged as blue. A red one is not held:
//   accounting treats it as an orphan (credits reversed once, blocks.ts). A block not merged yet
//   counts as held for KASPA_UNMERGED_GRACE_DAA (it is merged within moments), then as an orphan
//   (a block merged later as blue returns to pending). A chain block is merged by the next chain
//   block (kaspad lists the selected parent among the merge set's blues).
// - ONE PAYEE PER SEND (`maxOutputsPerSend = 1`): the daemon's Send pays one address. It may
//   answer several txids (it first merges many small coins into its own change address): the
//   last one pays the payee (split_transaction.go appends the merge transaction last), and is the
//   run's txid. No comment travels with a Kaspa transaction.
// - HISTORY. The daemon keeps none and kaspad v0.12.22 has no transaction index, so what the
//   wallet sent is read back from the DAG itself (dag-reader.ts scanTransactions): every
//   transaction accepted since a time, from the blocks of the selected chain walked back to that
//   time, then the mempool; each listed with its outputs less the pool wallet's own addresses
//   (those the daemon shows or holds coins on). An interrupted run is found by its outputs
//   (reconcile.ts paysOutputs): its payee and amount, to the sompi, in a transaction since the
//   run was written; a transaction of someone else paying the same address exactly the same amount
//   in that window would be taken for it (claimed txids excepted). A sent run's txid is found
//   first in the mempool, then where it was last seen (this process's memory), then by a scan
//   from when this process sent it or, after a restart, from `lookbackSeconds` ago (default 25 h:
//   reconcile re-checks recorded runs for 24 h). Its confirmations are the virtual DAA score less
//   its block's DAA score, plus one. A txid found nowhere is unknown (undefined): reconcile raises
//   payout-missing, never pays again by itself. Limits: the scan costs one GetBlock per chain
//   block walked back and one GetBlocks per page forward; on a 10 blocks-per-second mainnet a
//   25 h scan after a restart is heavy (it runs once per unknown txid, then its block is
//   remembered: a block stays in the DAG until pruned, and a red block's transactions are
//   accepted too); a transaction kaspad did not accept (a double spend inside a merged block)
//   counts from its block all the same.
import type { AccountingChain, WalletOutput, WalletTransaction } from '../../accounting/chain.js';
import { RpcError } from '../../rpc/json-rpc.js';
import { mergeStatus, scanTransactions, type PlacedTransaction } from './dag-reader.js';
import type { KaspadClient } from './kaspad-client.js';
import type { RpcTransaction } from './kaspad-wire.js';
import type { KaspaFeePolicy, KaspaWalletClient } from './kaspawallet-client.js';

/**
 * DAA score a found block may stay unmerged and still count as held (pending): 100 is ten seconds
 * on mainnet, far below the coinbase maturity (coin table), so an unmerged block is never confirmed.
 */
export const KASPA_UNMERGED_GRACE_DAA = 100;
/** How far back a txid this process did not send is looked for (recorded runs are re-checked 24 h). */
export const KASPA_TX_LOOKBACK_SECONDS = 25 * 3_600;
/** A scan for a transaction this process sent starts this long before it was sent (clock skew). */
const SENT_MARGIN_SECONDS = 120;

export interface KaspaAccountingOptions {
  /** The pool wallet's password (Send signs with it). */
  password: string;
  /** Absent: the daemon's own estimate (GetFeeEstimate, which Go kaspad does not answer). */
  feePolicy?: KaspaFeePolicy;
  lookbackSeconds?: number;
}

interface Located {
  txid: string;
  /** Absent: in the mempool when last seen. */
  daaScore?: bigint;
  time: number;
  outputs: WalletOutput[];
}

export class KaspaAccountingChain implements AccountingChain {
  readonly maxOutputsPerSend = 1;
  /** What this process sent: comment, time and payee, by txid. */
  private readonly sent = new Map<string, { comment: string; time: number; payee: string }>();
  /** Where transactions asked for were last seen, by txid. */
  private readonly located = new Map<string, Located>();

  constructor(
    private readonly node: KaspadClient,
    private readonly wallet: KaspaWalletClient,
    private readonly options: KaspaAccountingOptions,
  ) {}

  async getBlockCount(): Promise<number> {
    return Number((await this.node.getBlockDagInfo()).virtualDaaScore);
  }

  /**
   * Merged blue: held. Merged red or unknown: not held (an orphan). Not merged yet: held while the
   * tip is less than KASPA_UNMERGED_GRACE_DAA past it (a block is merged within moments; a
   * fresh block must not flap to orphaned and back), not held after that.
   */
  async holdsBlock(height: number, hash: string): Promise<boolean> {
    const status = await mergeStatus(this.node, hash);
    if (status !== 'unmerged') return status === 'blue';
    return (await this.getBlockCount()) - height < KASPA_UNMERGED_GRACE_DAA;
  }

  async getWalletBalance(): Promise<bigint> {
    return (await this.wallet.getBalance()).available;
  }

  async sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string> {
    const [payee, ...more] = [...outputs];
    if (!payee || more.length > 0)
      throw new RpcError(
        'rpc',
        'Send',
        `${outputs.size} payees: the kaspawallet daemon's Send pays exactly one`,
      );
    const txIds = await this.wallet.send({
      toAddress: payee[0],
      amount: payee[1],
      password: this.options.password,
      ...(this.options.feePolicy ? { feePolicy: this.options.feePolicy } : {}),
    });
    const txid = txIds[txIds.length - 1];
    if (txid === undefined) throw new RpcError('rpc', 'Send', 'the daemon answered no transaction id');
    this.forgetOld();
    this.sent.set(txid, { comment, time: this.now(), payee: payee[0] });
    return txid;
  }

  async getWalletTransaction(txid: string): Promise<WalletTransaction | undefined> {
    const own = await this.ownAddresses();
    const entry = await this.node.getMempoolEntry(txid);
    let located = entry?.transaction
      ? this.place({ transaction: entry.transaction, txid, time: 0 }, own)
      : this.located.get(txid);
    if (!located) {
      const since = (this.sent.get(txid)?.time ?? this.now() - this.lookback()) - SENT_MARGIN_SECONDS;
      await scanTransactions(this.node, since, (placed) => {
        if (placed.txid !== txid || placed.daaScore === undefined) return false;
        located = this.place(placed, own);
        return true;
      });
      // Remembered once in a block: a block stays in the DAG (until pruned), its place with it.
      if (located) this.located.set(txid, located);
    }
    return located ? this.describe(located, await this.virtualDaaScore()) : undefined;
  }

  async findWalletTransactions(sinceUnixSeconds: number): Promise<WalletTransaction[]> {
    const own = await this.ownAddresses();
    const found = new Map<string, Located>();
    await scanTransactions(this.node, sinceUnixSeconds, (placed) => {
      if (!found.has(placed.txid)) found.set(placed.txid, this.place(placed, own));
      return false;
    });
    const tip = await this.virtualDaaScore();
    return [...found.values()]
      .filter((tx) => tx.time >= sinceUnixSeconds && tx.outputs.length > 0)
      .map((tx) => this.describe(tx, tip));
  }

  /**
   * A transaction's outputs to others, with its place. Sent by this process: its payee's outputs.
   * Else every output to an address the wallet does not show: a change address the daemon has
   * not synced yet may be among them (harmless: a run matches a transaction that INCLUDES its
   * outputs, reconcile.ts).
   */
  private place(placed: PlacedTransaction, own: ReadonlySet<string>): Located {
    const sent = this.sent.get(placed.txid);
    const outputs = outputsToOthers(placed.transaction, own);
    const located: Located = {
      txid: placed.txid,
      time: sent?.time ?? (placed.time || this.now()),
      outputs: sent ? outputs.filter((output) => output.address === sent.payee) : outputs,
    };
    if (placed.daaScore !== undefined) located.daaScore = placed.daaScore;
    return located;
  }

  /** Confirmations: the virtual DAA score `tip` less the DAA score of the block holding it, plus one. */
  private describe(located: Located, tip: bigint): WalletTransaction {
    return {
      txid: located.txid,
      confirmations: located.daaScore === undefined ? 0 : Number(tip - located.daaScore + 1n),
      time: located.time,
      comment: this.sent.get(located.txid)?.comment,
      outputs: located.outputs,
    };
  }

  /** Drops what is older than the lookback: reconcile asks for nothing older. */
  private forgetOld(): void {
    const before = this.now() - this.lookback();
    for (const [txid, sent] of this.sent) if (sent.time < before) this.sent.delete(txid);
    for (const [txid, located] of this.located) if (located.time < before) this.located.delete(txid);
  }

  /** Addresses of the pool wallet: those the daemon shows and those it holds coins on (change). */
  private async ownAddresses(): Promise<Set<string>> {
    const [shown, balance] = await Promise.all([this.wallet.showAddresses(), this.wallet.getBalance()]);
    return new Set([...shown, ...balance.byAddress.map((entry) => entry.address)]);
  }

  private async virtualDaaScore(): Promise<bigint> {
    return BigInt((await this.node.getBlockDagInfo()).virtualDaaScore);
  }

  private lookback(): number {
    return this.options.lookbackSeconds ?? KASPA_TX_LOOKBACK_SECONDS;
  }

  private now(): number {
    return Math.floor(Date.now() / 1000);
  }
}

function outputsToOthers(transaction: RpcTransaction, own: ReadonlySet<string>): WalletOutput[] {
  const outputs: WalletOutput[] = [];
  for (const output of transaction.outputs) {
    const address = output.verboseData?.scriptPublicKeyAddress;
    if (address && !own.has(address)) outputs.push({ address, amount: BigInt(output.amount) });
  }
  return outputs;
}
