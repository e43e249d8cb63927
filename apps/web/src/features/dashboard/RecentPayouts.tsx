import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorBanner, Ltr, Private, Spinner } from '../../components';
import { formatCoin, formatDate } from '../../lib/format';
import { PayoutStatusBadge } from '../revenue/PayoutStatusBadge';
import { PayoutFailureText } from '../revenue/PayoutTx';
import { useRecentPayouts } from './api';

export function RecentPayouts() {
  const { t } = useTranslation();
  const payouts = useRecentPayouts(true);
  return (
    <section className="card stack" aria-labelledby="recent-payouts-title">
      <div className="section-head">
        <h2 id="recent-payouts-title">{t('dashboard.recentPayouts')}</h2>
        <Link className="section-link" to="/payouts">
          {t('dashboard.viewAllPayouts')}
        </Link>
      </div>
      {payouts.isPending ? <Spinner /> : null}
      {payouts.isError ? (
        <ErrorBanner message={t('revenue.loadError')} onRetry={() => void payouts.refetch()} />
      ) : null}
      {payouts.data && payouts.data.items.length === 0 ? (
        <p className="muted">{t('dashboard.noPayouts')}</p>
      ) : null}
      {payouts.data && payouts.data.items.length > 0 ? (
        <ul className="payout-list">
          {payouts.data.items.map((p) => (
            <li key={p.id}>
              <span>
                <Private kind="balance">
                  <Ltr mono={false} className="tabular">
                    {formatCoin(p.amount, p.coin)}
                  </Ltr>
                </Private>
                <br />
                <span className="muted">{formatDate(p.date)}</span>
                {p.status === 'failed' ? (
                  <>
                    <br />
                    <PayoutFailureText failure={p.failure} />
                  </>
                ) : null}
              </span>
              <PayoutStatusBadge status={p.status} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
