// /workers: Worker Dashboard over GET /api/workers?search=.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorBanner, Modal, Private, Spinner, StatCard, TextField } from '../../components';
import { intlLocale } from '../../lib/format';
import type { Language } from '../../lib/api-types';
import type { Worker } from '../../features/api-types';
import { formatHashrateAdaptive } from '../../features/dashboard/hashrateScale';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import { SetupGuide } from '../../features/setup-guide/SetupGuide';
import { useWorkers } from '../../features/workers/api';
import { EditWorkerDialog } from '../../features/workers/EditWorkerDialog';
import { useDebounced } from '../../features/workers/useDebounced';
import { WorkerDetails } from '../../features/workers/WorkerDetails';
import { WorkersTable } from '../../features/workers/WorkersTable';
import '../../features/dashboard/screens.css';
import '../../features/miners/miners.css';

export default function WorkersPage() {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'ar' ? 'ar' : 'en';
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search);
  const workers = useWorkers(debounced);
  const { notice, show, dismiss } = useNotice();
  const [details, setDetails] = useState<Worker | null>(null);
  const [editing, setEditing] = useState<Worker | null>(null);
  const [help, setHelp] = useState(false);
  const [guide, setGuide] = useState(false);
  useLiveUpdates();

  const empty = debounced.trim() ? (
    <EmptyState title={t('workers.empty')} message={t('workers.emptySearch', { search: debounced.trim() })} />
  ) : (
    <EmptyState title={t('workers.empty')} message={t('workers.emptyHint')} />
  );
  const totals = workers.data?.totals;

  return (
    <div className="container page">
      <header className="screen-header">
        <h1>{t('workers.title')}</h1>
        <div className="screen-actions">
          <button type="button" className="btn btn--ghost" onClick={() => setHelp(true)}>
            {t('workers.help')}
          </button>
          <button type="button" className="btn btn--primary" onClick={() => setGuide(true)}>
            {t('workers.addWorker')}
          </button>
        </div>
      </header>
      <div className="totals">
        <StatCard
          label={t('workers.totalHashrate')}
          value={
            totals ? (
              <Private kind="hashrate">
                <span dir="ltr">{formatHashrateAdaptive(totals.hashrate, intlLocale(lang), 1)}</span>
              </Private>
            ) : (
              '—'
            )
          }
        />
        <StatCard
          label={t('workers.activeWorkers')}
          value={totals ? t('workers.activeCount', { count: totals.active }) : '—'}
        />
      </div>
      <div className="toolbar" role="search">
        <TextField
          label={t('workers.searchLabel')}
          placeholder={t('workers.searchPlaceholder')}
          value={search}
          onChange={setSearch}
          type="search"
          autoComplete="off"
        />
      </div>
      {workers.isPending ? <Spinner size="lg" /> : null}
      {workers.isError ? (
        <ErrorBanner message={t('workers.loadError')} onRetry={() => void workers.refetch()} />
      ) : null}
      {workers.data ? (
        <WorkersTable
          workers={workers.data.workers}
          empty={empty}
          onDetails={setDetails}
          onEdit={setEditing}
          notify={show}
        />
      ) : null}
      <WorkerDetails worker={details} onClose={() => setDetails(null)} />
      <EditWorkerDialog worker={editing} onClose={() => setEditing(null)} notify={show} />
      <Modal open={help} onClose={() => setHelp(false)} title={t('workers.helpTitle')} size="sm">
        <p>{t('workers.helpBody')}</p>
      </Modal>
      <Modal open={guide} onClose={() => setGuide(false)} title={t('setupGuide.title')}>
        <SetupGuide />
      </Modal>
      <NoticeRegion notice={notice} onDismiss={dismiss} />
    </div>
  );
}
