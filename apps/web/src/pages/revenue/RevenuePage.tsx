// /revenue: Rewards (default) and Payouts, server-side search/filters/pages, CSV export.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Spinner, TabPanel, Tabs } from '../../components';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import {
  EMPTY_FILTERS,
  PAGE_SIZE,
  usePayouts,
  useRewards,
  type RevenueFilters,
  type RevenueKind,
} from '../../features/revenue/api';
import { MoneySummary, useRewardsEmptyText } from '../../features/revenue/MoneySummary';
import { Pager } from '../../features/revenue/Pager';
import { PayoutsTable } from '../../features/revenue/PayoutsTable';
import { RevenueToolbar } from '../../features/revenue/RevenueToolbar';
import { RewardsTable } from '../../features/revenue/RewardsTable';
import { PayoutAddressPrompt } from '../../features/settings/PayoutAddressPrompt';
import { useDebounced } from '../../features/workers/useDebounced';
import '../../features/dashboard/screens.css';
import '../../features/miners/miners.css';

export default function RevenuePage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<RevenueKind>('rewards');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<RevenueFilters>(EMPTY_FILTERS);
  const [page, setPage] = useState(1);
  const debounced = useDebounced(search);
  const applied = { ...filters, search: debounced };
  const rewards = useRewards(applied, page, kind === 'rewards');
  const payouts = usePayouts(applied, page, kind === 'payouts');
  const query = kind === 'rewards' ? rewards : payouts;
  const { notice, show, dismiss } = useNotice();
  useLiveUpdates();

  const filtered = Boolean(debounced.trim() || filters.coin || (kind === 'payouts' && filters.status));
  const rewardsEmpty = useRewardsEmptyText(filtered);
  const changeKind = (next: RevenueKind): void => {
    setKind(next);
    setPage(1);
  };

  return (
    <div className="container page">
      <header className="screen-header">
        <h1>{t('revenue.title')}</h1>
      </header>
      <PayoutAddressPrompt />
      <MoneySummary />
      <Tabs
        idBase="revenue"
        label={t('revenue.tabsLabel')}
        value={kind}
        onChange={changeKind}
        tabs={[
          { id: 'rewards', label: t('revenue.tabs.rewards') },
          { id: 'payouts', label: t('revenue.tabs.payouts') },
        ]}
      />
      <TabPanel idBase="revenue" value={kind}>
        <RevenueToolbar
          kind={kind}
          search={search}
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
          filters={filters}
          onFilters={(f) => {
            setFilters(f);
            setPage(1);
          }}
          notify={show}
        />
        {query.isPending ? <Spinner size="lg" label={t('revenue.loading')} /> : null}
        {query.isError ? (
          <ErrorBanner message={t('revenue.loadError')} onRetry={() => void query.refetch()} />
        ) : null}
        {kind === 'rewards' && rewards.data ? (
          <RewardsTable rows={rewards.data.items} empty={rewardsEmpty} />
        ) : null}
        {kind === 'payouts' && payouts.data ? (
          <PayoutsTable
            rows={payouts.data.items}
            empty={filtered ? t('revenue.emptyFiltered') : t('payouts.empty')}
          />
        ) : null}
        {query.data ? (
          <Pager
            page={page}
            pageSize={query.data.pageSize || PAGE_SIZE}
            total={query.data.total}
            onPage={setPage}
          />
        ) : null}
      </TabPanel>
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </div>
  );
}
