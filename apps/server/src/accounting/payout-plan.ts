// Who is paid in a payout run, how much, and to which address — pure decisions over balances.
import { isPayableAddress, type Coin, type Network } from '@manjam/protocol';
import type { PayableBalance } from '../db/repositories/payouts.js';

/** The coin a run pays and its network (a Bitcoin-family coin's CoinParams fits). */
export interface PayoutChainOf {
  coin: Coin;
  network: Network;
}

export interface PlannedPayout {
  payeeId: number;
  userId: number | null;
  address: string;
  amount: bigint;
}

export interface SkippedPayee {
  payeeId: number;
  amount: bigint;
  reason: 'below-threshold' | 'no-address' | 'invalid-address';
  address?: string;
}

/**
 * The address a payee is paid to. Users: the payout address they set for the run's coin, or its
 * pending change once the hold has passed; none for that coin, none at all (the balance is kept
 * until they set one; the registration wallet address is not a fallback: it is the payout
 * address of the coin it was registered for). Wallets: their address.
 */
export function payoutAddressOf(balance: PayableBalance, now: Date): string | null {
  if (balance.kind === 'wallet') return balance.payeeAddress;
  const pendingDue =
    balance.pendingPayoutAddress !== null &&
    balance.pendingPayoutEffectiveAt !== null &&
    balance.pendingPayoutEffectiveAt.getTime() <= now.getTime();
  if (pendingDue) return balance.pendingPayoutAddress;
  return balance.payoutAddress;
}

/**
 * Threshold in base units of the run's coin: the account's setting for that coin, else the pool
 * default for the coin (config.accounting.payoutThresholds; wallets always the default).
 */
export function thresholdOf(balance: PayableBalance, defaultThreshold: bigint): bigint {
  return balance.kind === 'user' && balance.threshold !== null ? balance.threshold : defaultThreshold;
}

/** Splits balances into payouts and skipped payees (with the reason, for the log). */
export function planPayouts(
  balances: readonly PayableBalance[],
  params: PayoutChainOf,
  /** The coin's default threshold in its base units. */
  defaultThreshold: bigint,
  now: Date,
): { payouts: PlannedPayout[]; skipped: SkippedPayee[] } {
  const payouts: PlannedPayout[] = [];
  const skipped: SkippedPayee[] = [];
  for (const balance of balances) {
    if (balance.amount < thresholdOf(balance, defaultThreshold)) {
      skipped.push({ payeeId: balance.payeeId, amount: balance.amount, reason: 'below-threshold' });
      continue;
    }
    const address = payoutAddressOf(balance, now);
    if (!address) {
      skipped.push({ payeeId: balance.payeeId, amount: balance.amount, reason: 'no-address' });
    } else if (!isPayableAddress(params.coin, params.network, address)) {
      skipped.push({ payeeId: balance.payeeId, amount: balance.amount, reason: 'invalid-address', address });
    } else {
      payouts.push({ payeeId: balance.payeeId, userId: balance.userId, address, amount: balance.amount });
    }
  }
  return { payouts, skipped };
}

/** sendmany outputs: one per address (two payees sharing an address are summed). */
export function outputsOf(payouts: readonly { address: string; amount: bigint }[]): Map<string, bigint> {
  const outputs = new Map<string, bigint>();
  for (const payout of payouts)
    outputs.set(payout.address, (outputs.get(payout.address) ?? 0n) + payout.amount);
  return outputs;
}

/** True when a wallet transaction pays at least every expected output (address and exact amount). */
export function paysOutputs(
  expected: ReadonlyMap<string, bigint>,
  outputs: readonly { address: string; amount: bigint }[],
): boolean {
  const seen = new Map<string, bigint[]>();
  for (const output of outputs)
    seen.set(output.address, [...(seen.get(output.address) ?? []), output.amount]);
  for (const [address, amount] of expected) {
    if (!(seen.get(address) ?? []).includes(amount)) return false;
  }
  return expected.size > 0;
}

/** What a wallet allows in one transaction (an AccountingChain's declared limits). */
export interface SendLimits {
  maxOutputsPerSend?: number;
  paysAlone?(address: string): boolean;
}

/**
 * The payouts one transaction can carry when the wallet limits it (Monero: 15 destinations, an
 * integrated address only on its own), so a run stays ONE transaction with ONE txid, as reconcile
 * expects. Addresses are ranked by their total, largest first: a payee left over keeps its
 * balance, which only grows, and ranks higher in a later run, while those paid start again from
 * their next earnings. The first decides: an address that must be paid alone makes a run of its
 * own; otherwise such addresses wait. Payees sharing an address stay together (one output); the
 * payouts taken keep their order.
 */
export function limitToOutputs(
  payouts: readonly PlannedPayout[],
  limits: SendLimits,
): { payouts: PlannedPayout[]; deferred: PlannedPayout[] } {
  const max = limits.maxOutputsPerSend ?? Number.POSITIVE_INFINITY;
  const alone = (address: string): boolean => limits.paysAlone?.(address) ?? false;
  const ranked = [...outputsOf(payouts)].map(([address, total], index) => ({ address, total, index }));
  ranked.sort((a, b) => (a.total === b.total ? a.index - b.index : a.total > b.total ? -1 : 1));
  const first = ranked[0]?.address;
  const chosen = new Set<string>(
    first !== undefined && alone(first)
      ? [first]
      : ranked
          .filter((r) => !alone(r.address))
          .slice(0, max)
          .map((r) => r.address),
  );
  return {
    payouts: payouts.filter((p) => chosen.has(p.address)),
    deferred: payouts.filter((p) => !chosen.has(p.address)),
  };
}
