// The Transaction cell of a payout: its id once sent; for a failed payout, why it sent nothing and
// that the amount is back in the balance (never "Pending..." beside a Failed badge).
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../components';
import { shortenTx } from '../../lib/format';
import type { Payout } from '../api-types';
import './money.css';

/** The reason in plain words (payouts.failure.*); an old failed row without a reason says only "Not sent". */
export function PayoutFailureText({ failure }: { failure: Payout['failure'] | undefined }) {
  const { t } = useTranslation();
  return (
    <span className="payout-failure">
      <span>{t(`payouts.failure.${failure ?? 'unknown'}`)}</span>
      <span className="payout-failure__refunded muted">{t('payouts.failureRefunded')}</span>
    </span>
  );
}

export function PayoutTx({ payout }: { payout: Pick<Payout, 'txId' | 'status' | 'failure'> }) {
  const { t } = useTranslation();
  if (payout.txId) return <Ltr title={payout.txId}>{shortenTx(payout.txId)}</Ltr>;
  if (payout.status === 'failed') return <PayoutFailureText failure={payout.failure} />;
  return <span className="muted">{t('payouts.pendingTx')}</span>;
}
