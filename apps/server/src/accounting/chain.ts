// What accounting needs of a coin's node and wallet (each family implements it: the Bitcoin
// family's JSON-RPC adapter is coins/bitcoin/wallet.ts, Monero's coins/monero/wallet.ts), and how
// a wallet's refusal is told apart from a lost answer.
import { RpcError } from '../rpc/json-rpc.js';

export interface WalletOutput {
  address: string;
  /** Base units, positive. */
  amount: bigint;
}

export interface WalletTransaction {
  txid: string;
  /** -1 or lower: conflicted / no longer in the main chain or mempool. */
  confirmations: number;
  /** Unix seconds the wallet first saw it. */
  time: number;
  comment: string | undefined;
  /** Every non-change output (paid to others or to the wallet's own receive addresses). */
  outputs: WalletOutput[];
  /**
   * A transaction the wallet sent without knowing to whom (`outputs` empty): Monero's wallet
   * learns a transfer it lost its record of (monero-wallet-rpc killed before saving) from the
   * chain, with the amount it paid out but not its destinations. Reconcile cannot rule it out.
   */
  untold?: { amount: bigint };
}

export interface AccountingChain {
  /**
   * The chain's tip as accounting counts depth: the best height (Bitcoin family, Monero) or the
   * virtual DAA score (Kaspa, whose found blocks are recorded at their DAA score).
   */
  getBlockCount(): Promise<number>;
  /**
   * Whether the block found at `height` (a DAA score for Kaspa) with this hash is on the chain and
   * its reward counts: the main chain's block at that height (Bitcoin family, Monero), a block
   * merged as blue by a chain block (Kaspa). False is an orphan (credits reversed once by
   * blocks.ts); a height above the tip is never asked.
   */
  holdsBlock(height: number, hash: string): Promise<boolean>;
  /** Confirmed wallet balance in base units (a pre-check; sendMany's answer is decisive). */
  getWalletBalance(): Promise<bigint>;
  /**
   * The most outputs one sendMany can pay (a wallet limit); absent: no limit. Payout runs take
   * at most this many addresses (payout-plan's `limitToOutputs`), so a run stays one transaction.
   */
  readonly maxOutputsPerSend?: number;
  /**
   * Addresses a transaction can pay only on their own (Monero: integrated addresses, whose payment
   * id is encrypted to the one destination); absent: none. Cut upstream like the outputs.
   */
  paysAlone?(address: string): boolean;
  /** One transaction paying every output; resolves with its txid. */
  sendMany(outputs: ReadonlyMap<string, bigint>, comment: string): Promise<string>;
  /** A wallet transaction, or undefined when the wallet does not know it. */
  getWalletTransaction(txid: string): Promise<WalletTransaction | undefined>;
  /** Wallet transactions first seen at or after `sinceUnixSeconds`, with their outputs. */
  findWalletTransactions(sinceUnixSeconds: number): Promise<WalletTransaction[]>;
  /**
   * Txids of transactions in the node's mempool that spend this wallet's coins but that the wallet
   * does not know: sent by it before it lost its record (monero-wallet-rpc killed before saving),
   * still to be mined and to pay someone (reconcile.ts, the double-payment window). Absent: the
   * wallet records a transaction before it broadcasts it (Bitcoin Core, bcoin), so there is none.
   */
  untoldPoolSpends?(): Promise<string[]>;
}

/** True when the node answered with an error: the request was refused, nothing was sent. */
export function isNodeRejection(error: unknown): boolean {
  return error instanceof RpcError
    ? error.kind === 'rpc'
    : (error as { kind?: unknown } | null)?.kind === 'rpc';
}

/**
 * True when a node's refusal says the wallet cannot fund the payment. Core and bcoin: code -6 or
 * "insufficient funds"/"not enough funds". monero-wallet-rpc: "not enough money" (-17) and "not
 * enough unlocked money" (-37: the coins exist but are still locked, e.g. the change of the last
 * transfer for 10 blocks), matched by message: each wallet numbers its errors its own way
 * (Monero's -6 is a bad transfer type in get_transfers, never an answer of transfer).
 */
export function isInsufficientFunds(error: unknown): boolean {
  if (!isNodeRejection(error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === -6 ||
    /insufficient funds|not enough funds|not enough (unlocked )?money/i.test((error as Error).message)
  );
}
