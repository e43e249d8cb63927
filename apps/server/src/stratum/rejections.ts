// The one rejection vocabulary of every Stratum dialect: why a submit was refused, what
// the ban judge does with each kind, and which kinds go into the share log. A dialect maps each
// kind to its own wire error (coins/<family>/stratum); the kinds, their counters on /metrics and
// their ban verdicts are the same on every port.
import { STRATUM_ERROR, stratumError, type StratumError } from '@manjam/protocol';
import type { RejectReason } from '../shares/types.js';
import type { BanVerdict } from './ban-judge.js';

/** Why a submit was refused, as counted in each port's stats and on /metrics. */
export const REJECTION_KINDS = [
  'stale',
  'duplicate',
  'low_difficulty',
  'invalid',
  'unauthorized',
  'not_subscribed',
  'busy',
] as const;
export type RejectionKind = (typeof REJECTION_KINDS)[number];

export interface RejectionRule {
  /**
   * How the refusal counts for bans (ban-judge.ts). A stale share happens to honest miners around
   * every block and `busy` is the pool's own capacity: neither counts for or against the miner.
   * (A share refused unchecked because its connection's own queue was full is `busy` but charged
   * as invalid: the caller passes that verdict, fair-work.ts.)
   */
  ban: BanVerdict;
  /** The share log's reason (a miner's rejected-share figures), or null: not a share the miner is shown. */
  logAs: RejectReason | null;
}

export const REJECTION_RULES: { readonly [K in RejectionKind]: RejectionRule } = {
  stale: { ban: 'uncounted', logAs: 'stale' },
  duplicate: { ban: 'invalid', logAs: 'duplicate' },
  low_difficulty: { ban: 'invalid', logAs: 'low_difficulty' },
  invalid: { ban: 'invalid', logAs: 'invalid' },
  unauthorized: { ban: 'invalid', logAs: null },
  not_subscribed: { ban: 'invalid', logAs: null },
  busy: { ban: 'uncounted', logAs: null },
};

/** A counter per kind, all at 0. */
export function rejectionCounts(): Record<RejectionKind, number> {
  const counts = {} as Record<RejectionKind, number>;
  for (const kind of REJECTION_KINDS) counts[kind] = 0;
  return counts;
}

/**
 * Each kind in the Stratum V1 error convention (`[code, message, null]`), which the V1 dialect
 * (coins/bitcoin) and the Kaspa dialect answer with. `invalid`, `stale` and `busy` often say why
 * (a malformed share, a job not found, why the coin's work is paused, the share log's refusal):
 * the dialect passes its own error then, with the same code.
 */
export const STRATUM_V1_REFUSALS: { readonly [K in RejectionKind]: StratumError } = {
  stale: stratumError(STRATUM_ERROR.JOB_NOT_FOUND, 'Stale job'),
  duplicate: stratumError(STRATUM_ERROR.DUPLICATE),
  low_difficulty: stratumError(STRATUM_ERROR.LOW_DIFFICULTY),
  invalid: stratumError(STRATUM_ERROR.OTHER, 'Invalid share'),
  unauthorized: stratumError(STRATUM_ERROR.UNAUTHORIZED),
  not_subscribed: stratumError(STRATUM_ERROR.NOT_SUBSCRIBED),
  busy: stratumError(STRATUM_ERROR.OTHER, 'Server busy, try again'),
};
