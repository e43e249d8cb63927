// /workers: Worker Dashboard over GET /api/workers?search= (hashrate per algorithm, per-worker windows).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorBanner, Modal, Spinner, StatCard, TextField } from '../../components';
import type { Worker } from '../../features/api-types';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { AlgorithmHashrates } from '../../features/hashrate/AlgorithmHashrates';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import { SetupGuide } from '../../features/setup-guide/SetupGuide';
import { useWorkers } from '../../features/workers/api';
import { EditWorkerDialog } from '../../features/workers/EditWorkerDialog';
import { useDebounced } from '../../features/workers/useDebounced';
import { WorkersTable } from '../../features/workers/WorkersTable';
import '../../features/dashboard/screens.css';
import { FigurePlaceholder, FiguresAsOf, FiguresError } from '../../features/hashrate/FigureStates';
import '../../features/miners/miners.css';

export default function WorkersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search);
  const workers = useWorkers(debounced);
  const { notice, show, dismiss } = useNotice();
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
              <AlgorithmHashrates hashrates={totals.hashrates} withHour />
            ) : workers.isError ? (
              <FiguresError />
            ) : (
              <FigurePlaceholder />
            )
          }
        />
        <StatCard
          label={t('workers.activeWorkers')}
          value={
            totals ? (
              t('workers.activeCount', { count: totals.active })
            ) : workers.isError ? (
              '—'
            ) : (
              <FigurePlaceholder />
            )
          }
        />
      </div>
      {workers.data ? <FiguresAsOf asOf={workers.data.asOf} /> : null}
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
        <WorkersTable workers={workers.data.workers} empty={empty} onEdit={setEditing} notify={show} />
      ) : null}
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
