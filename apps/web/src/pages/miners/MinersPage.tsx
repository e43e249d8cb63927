// /miners: miner search (?search=) for everyone, plus "Your Miners" when signed in.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../lib/auth';
import type { MinerType } from '../../features/api-types';
import { AddMinerModal } from '../../features/miners/AddMinerModal';
import { MinersTable } from '../../features/miners/MinersTable';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import { MinerSearchPanel } from '../../features/search/MinerSearchPanel';
import '../../features/dashboard/screens.css';

export default function MinersPage() {
  const { t } = useTranslation();
  const { isSignedIn } = useAuth();
  const [params, setParams] = useSearchParams();
  const query = params.get('search') ?? '';
  const { notice, show, dismiss } = useNotice();
  const [adding, setAdding] = useState<MinerType | null>(null);

  return (
    <div className="container page stack">
      <header className="page__header">
        <h1>{t('search.pageTitle')}</h1>
      </header>
      <section className="card">
        <MinerSearchPanel
          key={query}
          initialQuery={query}
          onSearch={(q) => setParams({ search: q })}
          autoFocus={!query}
        />
      </section>
      {isSignedIn ? (
        <section className="card stack" aria-labelledby="your-miners-title">
          <div className="section-head">
            <h2 id="your-miners-title">{t('dashboard.yourMiners')}</h2>
            <button type="button" className="btn btn--primary btn--sm" onClick={() => setAdding('asic')}>
              {t('dashboard.addMiner')}
            </button>
          </div>
          <MinersTable notify={show} />
        </section>
      ) : null}
      <AddMinerModal type={adding} onClose={() => setAdding(null)} notify={show} />
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </div>
  );
}
