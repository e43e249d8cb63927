// The pool's money arithmetic: pure, integer, deterministic. No floats touch an amount.
//
// ROUNDING RULE (the one rule every scheme follows)
// 1. Work. A share's difficulty d (a double, in the algorithm's Stratum unit) becomes the integer
//    "work" d * 2^128. Multiplying a double by a power of two is exact, and for d >= 2^-75 the
//    product is >= 2^53, hence a whole number: the work is the EXACT value of the double (every
//    real difficulty, regtest's 4.66e-10 included, is far above 2^-75 = 2.6e-23). Share and network
//    difficulty share one unit, so w/W = work(d) / work(D) exactly, in integers.
// 2. PPS. A share's gross value is floor(S * min(w, W) * 2^32 / W) in "fixed-point base units"
//    (1/2^32 of a satoshi/litoshi); a share is never worth more than a block. A slot row of n
//    identical shares (same w, W and height: shares/slots.ts) is worth n times that, exactly. Per payee and batch
//    the pool fee is floor(gross * feeBps / 10000) and the miner's part gross - fee (both fixed
//    point). Each payee keeps a carried fraction (< 1 base unit) so that sub-unit earnings of
//    small miners are never lost between batches: credit = floor((carry + net) / 2^32), the rest
//    is the new carry. The pool's fee carries the same way.
//    Conservation: sum(gross) = 2^32 * (credits + fees) + (new carries - old carries), exactly.
// 3. Block splits (PPLNS, PPS+ fees, SOLO). fee = floor(value * feeBps / 10000); each payee gets
//    floor((value - fee) * weight / totalWeight); whatever is left (< number of payees units)
//    is the remainder and goes to the pool payee. credits + fee + remainder = value, exactly.
// The same inputs always give the same outputs: iteration is in a fixed order, no float maths
// after step 1, and step 1 is IEEE-exact.

/** Fractional bits of a work value. */
export const WORK_FRACTION_BITS = 128n;
/** Fractional bits of a fixed-point amount (PPS accumulates below one base unit). */
export const AMOUNT_FRACTION_BITS = 32n;
export const AMOUNT_ONE = 1n << AMOUNT_FRACTION_BITS;
export const BASIS_POINTS = 10_000n;
/** The PPLNS window factor is read to this many decimal places (2 -> 2.000000). */
const FACTOR_SCALE = 1_000_000n;

/** difficulty * 2^128 as an integer (exact for difficulty >= 2^-75); throws on a non-finite or negative one. */
export function workOf(difficulty: number): bigint {
  if (!Number.isFinite(difficulty) || difficulty < 0)
    throw new RangeError(`invalid difficulty: ${difficulty}`);
  return BigInt(Math.floor(difficulty * 2 ** Number(WORK_FRACTION_BITS)));
}

export function checkBasisPoints(feeBps: number): bigint {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000)
    throw new RangeError(`invalid fee: ${feeBps} basis points`);
  return BigInt(feeBps);
}

/** The pool fee on a value: floor(value * bps / 10000). */
export function feeOf(value: bigint, feeBps: number): bigint {
  if (value < 0n) throw new RangeError('a fee is taken from a non-negative value');
  return (value * checkBasisPoints(feeBps)) / BASIS_POINTS;
}

/** A share's PPS gross value in fixed-point base units: floor(S * min(w, W) * 2^32 / W). */
export function ppsShareValueFp(subsidy: bigint, shareDifficulty: number, networkDifficulty: number): bigint {
  const network = workOf(networkDifficulty);
  if (network <= 0n) throw new RangeError(`invalid network difficulty: ${networkDifficulty}`);
  const share = workOf(shareDifficulty);
  const capped = share < network ? share : network;
  return (subsidy * capped * AMOUNT_ONE) / network;
}

export interface PpsShare {
  payeeId: number;
  difficulty: number;
  networkDifficulty: number;
  /** Subsidy of the block the share worked on. */
  subsidy: bigint;
  /** Identical shares this entry stands for (a slot row; default 1): worth count * one share. */
  count?: number;
}

export interface PpsCarry {
  /** Carried miner fraction per payee, fixed point (< 2^32). */
  payees: ReadonlyMap<number, bigint>;
  /** Carried pool-fee fraction, fixed point (< 2^32). */
  pool: bigint;
}

export interface PpsResult {
  /** Whole base units credited per payee (payees with a zero credit are listed with 0n). */
  credits: Map<number, bigint>;
  /** Whole base units of pool fee. */
  fee: bigint;
  /** Sum of the shares' gross values, fixed point. */
  grossFp: bigint;
  carry: { payees: Map<number, bigint>; pool: bigint };
}

/** Credits one batch of PPS shares, carrying sub-unit fractions (rounding rule, step 2). */
export function creditPps(shares: readonly PpsShare[], feeBps: number, carry: PpsCarry): PpsResult {
  const grossByPayee = new Map<number, bigint>();
  for (const share of shares) {
    const value =
      ppsShareValueFp(share.subsidy, share.difficulty, share.networkDifficulty) * countOf(share.count);
    grossByPayee.set(share.payeeId, (grossByPayee.get(share.payeeId) ?? 0n) + value);
  }
  const credits = new Map<number, bigint>();
  const payeeCarry = new Map<number, bigint>();
  let feeFp = carry.pool;
  let grossFp = 0n;
  for (const payeeId of [...grossByPayee.keys()].sort((a, b) => a - b)) {
    const gross = grossByPayee.get(payeeId) ?? 0n;
    grossFp += gross;
    const fee = feeOf(gross, feeBps);
    feeFp += fee;
    const total = (carry.payees.get(payeeId) ?? 0n) + gross - fee;
    credits.set(payeeId, total / AMOUNT_ONE);
    payeeCarry.set(payeeId, total % AMOUNT_ONE);
  }
  return {
    credits,
    fee: feeFp / AMOUNT_ONE,
    grossFp,
    carry: { payees: payeeCarry, pool: feeFp % AMOUNT_ONE },
  };
}

/** A row's share count as a bigint: a positive integer, 1 when unset. */
function countOf(count: number | undefined): bigint {
  if (count === undefined) return 1n;
  if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError(`invalid share count: ${count}`);
  return BigInt(count);
}

export interface WeightedShare {
  payeeId: number;
  difficulty: number;
  /** Identical shares (a slot row; default 1): its work is count * work(difficulty). */
  count?: number;
}

/** The PPLNS window in work units: floor(work(D) * factor), factor read to 6 decimals. */
export function windowWork(networkDifficulty: number, factor: number): bigint {
  if (!Number.isFinite(factor) || factor <= 0) throw new RangeError(`invalid PPLNS window factor: ${factor}`);
  return (workOf(networkDifficulty) * BigInt(Math.round(factor * Number(FACTOR_SCALE)))) / FACTOR_SCALE;
}

/**
 * Weights of the last N work units of shares, newest first: each share counts its work; the
 * oldest share that crosses the window's edge counts only the part inside it. A slot row
 * (shares/slots.ts) is one entry of count shares: crossing the edge, it counts the work inside.
 * Returns the weights and whether the window was filled (more shares are needed otherwise).
 */
export function windowWeights(
  sharesNewestFirst: Iterable<WeightedShare>,
  window: bigint,
  into: Map<number, bigint> = new Map(),
  alreadyCounted = 0n,
): { weights: Map<number, bigint>; counted: bigint; full: boolean } {
  let counted = alreadyCounted;
  for (const share of sharesNewestFirst) {
    if (counted >= window) break;
    const work = workOf(share.difficulty) * countOf(share.count);
    const part = counted + work > window ? window - counted : work;
    if (part > 0n) into.set(share.payeeId, (into.get(share.payeeId) ?? 0n) + part);
    counted += part;
  }
  return { weights: into, counted, full: counted >= window };
}

export interface BlockSplit {
  credits: Map<number, bigint>;
  fee: bigint;
  remainder: bigint;
}

/** Splits a block value over weights (rounding rule, step 3). No weight: all of it is remainder. */
export function splitByWeight(
  value: bigint,
  feeBps: number,
  weights: ReadonlyMap<number, bigint>,
): BlockSplit {
  if (value < 0n) throw new RangeError('cannot split a negative value');
  const fee = feeOf(value, feeBps);
  const distributable = value - fee;
  let total = 0n;
  for (const weight of weights.values()) {
    if (weight < 0n) throw new RangeError('a weight is never negative');
    total += weight;
  }
  const credits = new Map<number, bigint>();
  let paid = 0n;
  if (total > 0n) {
    for (const payeeId of [...weights.keys()].sort((a, b) => a - b)) {
      const credit = (distributable * (weights.get(payeeId) ?? 0n)) / total;
      if (credit > 0n) credits.set(payeeId, credit);
      paid += credit;
    }
  }
  return { credits, fee, remainder: distributable - paid };
}

/** SOLO: the finder gets the block reward minus the fee. */
export function splitSolo(reward: bigint, feeBps: number, finderPayeeId: number): BlockSplit {
  return splitByWeight(reward, feeBps, new Map([[finderPayeeId, 1n]]));
}
