// /watch/:token — a watcher link: the coins and pages its owner chose, read-only,
// without signing in. Fed only by /api/watch/<token>/...: no email, username, settings or full
// payout address ever reaches this page. An unknown, expired or revoked link shows "not found".
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorBanner, Spinner } from '../../components';
import { useWatchView } from '../../features/monitoring/watch-api';
import { WatchDashboardSection, WatchPayoutsSection } from '../../features/monitoring/WatchSections';
import { WatchWorkersSection } from '../../features/monitoring/WatchWorkers';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import '../../features/dashboard/screens.css';
import '../../features/monitoring/monitoring.css';

export default function WatchPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const view = useWatchView(token);
  if (view.isPending)
    return (
      <div className="container page">
        <Spinner size="lg" />
      </div>
    );
  if (view.isError) {
    const gone = view.error instanceof ApiError && view.error.status === 404;
    return (
      <div className="container page">
        <h1>{gone ? t('watch.goneTitle') : t('watch.title')}</h1>
        {gone ? (
          <p>{t('watch.gone')}</p>
        ) : (
          <ErrorBanner message={errorMessage(view.error, t)} onRetry={() => void view.refetch()} />
        )}
        <Link to="/">{t('watch.home')}</Link>
      </div>
    );
  }
  const { label, coins, pages, expiresAt } = view.data;
  return (
    <div className="container page watch">
      <header className="screen-header">
        <h1>
          {t('watch.title')}: <bdi>{label}</bdi>
        </h1>
        <p className="muted">
          {t('watch.readOnly')} {expiresAt ? t('watch.expires', { date: formatDateTime(expiresAt) }) : null}
        </p>
      </header>
      {pages.includes('dashboard') ? <WatchDashboardSection token={token} /> : null}
      {pages.includes('workers') ? <WatchWorkersSection token={token} /> : null}
      {pages.includes('payouts') ? <WatchPayoutsSection token={token} coins={coins} /> : null}
    </div>
  );
}
