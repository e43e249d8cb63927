// An in-memory chain and wallet for accounting tests that are about the database, not the node.
// The regtest integration tests use the real nodes (RpcAccountingChain).
import { randomBytes } from 'node:crypto';
import type { AccountingChain, WalletTransaction } from '../../../src/accounting/chain.js';

export class MemoryChain implements AccountingChain {
  /** Main-chain block hashes by height (index = height). */
  hashes: string[] = [];
  walletBalance = 0n;
  readonly transactions: WalletTransaction[] = [];
  /**
   * Next sendMany: 'ok', refuse for lack of funds, send and then lose the answer, or send and then
   * refuse (as monero-wallet-rpc whose relay got no answer from monerod: the node has the
   * transaction, the wallet no record of it).
   */
  nextSend: 'ok' | 'insufficient' | 'lost-answer' | 'no-answer' | 'refused-after-send' = 'ok';
  /** Unconfirmed transactions the wallet lost its record of, still in the node's pool. */
  readonly untoldPool: WalletTransaction[] = [];
  /** A wallet limit on outputs per transaction (as Monero's 15 destinations); sendMany refuses more. */
  maxOutputsPerSend: number | undefined = undefined;

  constructor(height = 0) {
    this.extend(height + 1);
  }

  /** Appends `n` blocks to the main chain; returns their hashes. */
  extend(n: number): string[] {
    const added = Array.from({ length: n }, () => randomBytes(32).toString('hex'));
    // Pool transactions are mined; the wallet learns the lost ones back without their destinations.
    for (const tx of this.untoldPool.splice(0)) {
      const paid = tx.outputs.reduce((sum, o) => sum + o.amount, 0n);
      this.transactions.push({ ...tx, comment: undefined, outputs: [], untold: { amount: paid } });
    }
    this.hashes.push(...added);
    for (const tx of this.transactions) if (tx.confirmations >= 0) tx.confirmations += n;
    return added;
  }

  /** Replaces the chain from `height` on with `n` other blocks (a reorg). */
  reorg(height: number, n: number): void {
    this.hashes.length = height;
    this.extend(n);
  }

  /** A reorg back to `branch` (main-chain hashes saved earlier), extended by `n` more blocks. */
  switchTo(branch: readonly string[], n = 0): void {
    this.hashes = [...branch];
    this.extend(n);
  }

  /**
   * The wallet forgets to whom a transaction paid and its comment, knowing only the amount it
   * paid out (as monero-wallet-rpc killed before saving learns its transfer back from the chain).
   */
  loseRecord(txid: string, amount?: bigint): void {
    const tx = this.transactions.find((t) => t.txid === txid);
    if (!tx) throw new Error(`no wallet transaction ${txid}`);
    const paid = tx.outputs.reduce((sum, o) => sum + o.amount, 0n);
    Object.assign(tx, { comment: undefined, outputs: [], untold: { amount: amount ?? paid } });
  }

  /**
   * The wallet forgets an unconfirmed transaction altogether while the node's pool keeps it (as
   * monero-wallet-rpc killed before saving): it comes back without destinations once mined.
   */
  loseRecordInPool(txid: string): void {
    const index = this.transactions.findIndex((t) => t.txid === txid && t.confirmations === 0);
    const [tx] = index < 0 ? [] : this.transactions.splice(index, 1);
    if (!tx) throw new Error(`no unconfirmed wallet transaction ${txid}`);
    this.untoldPool.push(tx);
  }

  /** A lost transaction leaves the node's pool unmined (expired, evicted, flushed). */
  dropFromPool(txid: string): void {
    const index = this.untoldPool.findIndex((t) => t.txid === txid);
    if (index < 0) throw new Error(`no pool transaction ${txid}`);
    this.untoldPool.splice(index, 1);
  }

  untoldPoolSpends(): Promise<string[]> {
    return Promise.resolve(this.untoldPool.map((tx) => tx.txid));
  }

  tip(): number {
    return this.hashes.length - 1;
  }

  getBlockCount(): Promise<number> {
    return Promise.resolve(this.tip());
  }

  holdsBlock(height: number, hash: string): Promise<boolean> {
    const atHeight = this.hashes[height];
    if (atHeight === undefined)
      return Promise.reject(Object.assign(new Error('Block height out of range'), { kind: 'rpc', code: -8 }));
    return Promise.resolve(atHeight === hash);
  }

  getWalletBalance(): Promise<bigint> {
    return Promise.resolve(this.walletBalance);
  }

  sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string> {
    const total = [...outputs.values()].reduce((a, b) => a + b, 0n);
    if (this.maxOutputsPerSend !== undefined && outputs.size > this.maxOutputsPerSend)
      return Promise.reject(
        Object.assign(new Error('Transaction would be too large'), { kind: 'rpc', code: -18 }),
      );
    if (this.nextSend === 'insufficient' || total > this.walletBalance) {
      return Promise.reject(Object.assign(new Error('Insufficient funds'), { kind: 'rpc', code: -6 }));
    }
    if (this.nextSend === 'no-answer') {
      this.nextSend = 'ok';
      return Promise.reject(
        Object.assign(new Error('sendmany: no answer within 30000 ms'), { kind: 'timeout' }),
      );
    }
    const txid = randomBytes(32).toString('hex');
    this.walletBalance -= total;
    const out = [...outputs].map(([address, amount]) => ({ address, amount }));
    this.transactions.push({
      txid,
      confirmations: 0,
      time: Math.floor(Date.now() / 1000),
      comment,
      outputs: out,
    });
    if (this.nextSend === 'lost-answer') {
      this.nextSend = 'ok';
      return Promise.reject(Object.assign(new Error('sendmany: connection reset'), { kind: 'transport' }));
    }
    if (this.nextSend === 'refused-after-send') {
      this.nextSend = 'ok';
      this.loseRecordInPool(txid);
      return Promise.reject(Object.assign(new Error('No connection to daemon'), { kind: 'rpc', code: -38 }));
    }
    return Promise.resolve(txid);
  }

  getWalletTransaction(txid: string): Promise<WalletTransaction | undefined> {
    return Promise.resolve(this.transactions.find((tx) => tx.txid === txid));
  }

  findWalletTransactions(since: number): Promise<WalletTransaction[]> {
    return Promise.resolve(this.transactions.filter((tx) => tx.time >= since));
  }
}
