// /payouts (signed in): the account's payouts with real pagination.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Spinner } from '../../components';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { EMPTY_FILTERS, PAGE_SIZE, usePayouts } from '../../features/revenue/api';
import { Pager } from '../../features/revenue/Pager';
import { PayoutsTable } from '../../features/revenue/PayoutsTable';
import '../../features/dashboard/screens.css';

export default function PayoutsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const payouts = usePayouts(EMPTY_FILTERS, page);
  useLiveUpdates();
  return (
    <div className="container page">
      <header className="screen-header">
        <h1>{t('payouts.title')}</h1>
      </header>
      {payouts.isPending ? <Spinner size="lg" /> : null}
      {payouts.isError ? (
        <ErrorBanner message={t('revenue.loadError')} onRetry={() => void payouts.refetch()} />
      ) : null}
      {payouts.data ? (
        <>
          <PayoutsTable rows={payouts.data.items} empty={t('payouts.empty')} />
          <Pager
            page={page}
            pageSize={payouts.data.pageSize || PAGE_SIZE}
            total={payouts.data.total}
            onPage={setPage}
          />
        </>
      ) : null}
    </div>
  );
}
