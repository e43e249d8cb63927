// /dashboard: Mining Dashboard over GET /api/dashboard, hashrate, miners and payouts.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorBanner, Modal, Spinner } from '../../components';
import { useAuth } from '../../lib/auth';
import type { MinerType } from '../../features/api-types';
import { AddNewMinerPanel } from '../../features/dashboard/AddNewMinerPanel';
import { CoinBalancesCard } from '../../features/dashboard/CoinBalances';
import { FiguresAsOf } from '../../features/hashrate/FigureStates';
import { useDashboard } from '../../features/dashboard/api';
import { HashrateChartCard } from '../../features/dashboard/HashrateChartCard';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { RecentPayouts } from '../../features/dashboard/RecentPayouts';
import { SummaryCards } from '../../features/dashboard/SummaryCards';
import { AddMinerModal } from '../../features/miners/AddMinerModal';
import { MinersTable } from '../../features/miners/MinersTable';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import { MinerSearchPanel } from '../../features/search/MinerSearchPanel';
import { PayoutAddressPrompt } from '../../features/settings/PayoutAddressPrompt';
import '../../features/dashboard/screens.css';

export default function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const dashboard = useDashboard(user !== null);
  const { notice, show, dismiss } = useNotice();
  const [adding, setAdding] = useState<MinerType | null>(null);
  const [finding, setFinding] = useState(false);
  useLiveUpdates();

  const header = (
    <header className="screen-header">
      <h1>{t('dashboard.title')}</h1>
      <div className="screen-actions">
        <button type="button" className="btn btn--primary" onClick={() => setAdding('asic')}>
          {t('dashboard.addMiner')}
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => setFinding(true)}>
          {t('dashboard.findMiner')}
        </button>
        <Link className="btn btn--ghost" to="/downloads" target="_blank" rel="noopener">
          {t('dashboard.downloadMiners')}{' '}
          <span className="visually-hidden">{t('dashboard.opensNewTab')}</span>
        </Link>
      </div>
    </header>
  );

  let body;
  if (!user) body = <ErrorBanner message={t('dashboard.noUser')} />;
  else if (dashboard.isPending) body = <Spinner size="lg" label={t('dashboard.loading')} showLabel />;
  else if (dashboard.isError)
    body = <ErrorBanner message={t('dashboard.loadError')} onRetry={() => void dashboard.refetch()} />;
  else
    body = (
      <div className="stack">
        <SummaryCards data={dashboard.data} />
        <FiguresAsOf asOf={dashboard.data.asOf} />
        <div className="dashboard-columns">
          <div className="stack">
            <HashrateChartCard hashrates={dashboard.data.hashrates} coin={dashboard.data.coin} />
            <section className="card stack" aria-labelledby="dash-miners-title">
              <div className="section-head">
                <h2 id="dash-miners-title">{t('dashboard.yourMiners')}</h2>
                <Link className="section-link" to="/miners">
                  {t('dashboard.viewAllMiners')}
                </Link>
              </div>
              <MinersTable notify={show} />
            </section>
          </div>
          <div className="stack">
            <CoinBalancesCard />
            <RecentPayouts />
            <AddNewMinerPanel />
          </div>
        </div>
      </div>
    );

  return (
    <div className="container page">
      {header}
      {user ? <PayoutAddressPrompt /> : null}
      {body}
      <AddMinerModal type={adding} onClose={() => setAdding(null)} notify={show} />
      <Modal open={finding} onClose={() => setFinding(false)} title={t('search.title')}>
        <MinerSearchPanel />
      </Modal>
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </div>
  );
}
