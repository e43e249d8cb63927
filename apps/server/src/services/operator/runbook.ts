import type { OperatorAlertKind, Runbook } from '@manjam/contract';

/** The runbook every alert kind points to: docs/OPERATIONS.md, at the section saying what to do. */
export const RUNBOOK_DOC = 'docs/OPERATIONS.md';

/** Each kind's section anchor (the `<a id>` before its item in docs/OPERATIONS.md). */
const ANCHORS: Record<OperatorAlertKind, string> = {
  'payout-stuck': 'alert-payout-stuck',
  'payout-missing': 'alert-payout-missing',
  'wallet-insufficient': 'alert-wallet-insufficient',
  'accounting-errors': 'alert-accounting-errors',
  'block-returned': 'alert-block-returned',
};

export function runbookOf(kind: OperatorAlertKind): Runbook {
  return { doc: RUNBOOK_DOC, anchor: ANCHORS[kind] };
}
