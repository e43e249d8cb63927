// "Your Miners": type tabs, the miners table, copy / edit / delete actions.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorBanner, Private, Spinner, Table, TabPanel, Tabs, type Column } from '../../components';
import { Ltr } from '../../components/Ltr';
import { useAuth } from '../../lib/auth';
import { formatHashrate, formatRelative } from '../../lib/format';
import { usePoolPorts } from '../../lib/queries';
import type { Miner, UndeclaredWorker } from '../api-types';
import { useMiners, type MinerFilter } from './api';
import { ActionIcon } from './ActionIcon';
import { AddMinerModal } from './AddMinerModal';
import { UndeclaredWorkers } from './UndeclaredWorkers';
import { DeleteMinerModal } from './DeleteMinerModal';
import { EditMinerModal } from './EditMinerModal';
import { connectionString, portForAlgorithm } from './minerForm';
import type { NoticeApi } from './notice';
import './miners.css';

const FILTERS: readonly MinerFilter[] = ['all', 'asic', 'gpu', 'cpu'];

export function StatusDot({ status, label }: { status: string; label: string }) {
  return (
    <span className="status">
      <span className={`status-dot status-dot--${status}`} aria-hidden="true" />
      {label}
    </span>
  );
}

export function MinersTable({ notify }: { notify: NoticeApi['show'] }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<MinerFilter>('all');
  const [editing, setEditing] = useState<Miner | null>(null);
  const [deleting, setDeleting] = useState<Miner | null>(null);
  const [declaring, setDeclaring] = useState<UndeclaredWorker | null>(null);
  const prefill = useMemo(() => (declaring ? prefillOf(declaring) : undefined), [declaring]);
  const miners = useMiners(filter);
  const ports = usePoolPorts();
  const { user } = useAuth();

  const copy = async (miner: Miner): Promise<void> => {
    // A click can come before the port list has loaded: wait for it rather than fail.
    const pool = ports.data ?? (await ports.refetch()).data;
    const port = portForAlgorithm(pool, miner.algorithm);
    if (!pool || port === null) {
      notify(t('miners.portUnknown'), 'error');
      return;
    }
    const text = connectionString(pool.host, port, user?.username ?? '', miner.workerName);
    try {
      await navigator.clipboard.writeText(text);
      notify(t('miners.copied'), 'success');
    } catch {
      notify(t('miners.copyFailed'), 'error');
    }
  };

  const columns: Column<Miner>[] = [
    { key: 'miner', header: t('miners.columns.miner'), render: (m) => <strong>{m.name}</strong> },
    {
      key: 'algorithm',
      header: t('miners.columns.algorithm'),
      render: (m) => t(`miners.algorithms.${m.algorithm}`),
    },
    {
      key: 'status',
      header: t('miners.columns.status'),
      render: (m) => <StatusDot status={m.status} label={t(`miners.status.${m.status}`)} />,
    },
    {
      key: 'hashrate',
      header: t('miners.columns.hashrate'),
      align: 'end',
      render: (m) => (
        <Private kind="hashrate">
          <Ltr mono={false} className="tabular">
            {formatHashrate(m.hashrate)}
          </Ltr>
        </Private>
      ),
    },
    {
      key: 'workers',
      header: t('miners.columns.workers'),
      align: 'end',
      render: (m) =>
        m.linked.length === 0 ? (
          <span className="tabular">0</span>
        ) : (
          <span className="miner-workers">
            {m.linked.map((w) => (
              <Link key={w.id} to={`/workers/${w.id}`}>
                <Ltr mono={false}>{w.name}</Ltr>
              </Link>
            ))}
          </span>
        ),
    },
    {
      key: 'lastSeen',
      header: t('miners.columns.lastSeen'),
      render: (m) =>
        m.status === 'connected'
          ? t('workers.waitingForShare')
          : m.lastSeen
            ? formatRelative(m.lastSeen)
            : t('miners.never'),
    },
    {
      key: 'actions',
      header: t('miners.columns.actions'),
      align: 'end',
      render: (m) => (
        <span className="row-actions">
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            aria-label={t('miners.copy', { name: m.name })}
            onClick={() => void copy(m)}
          >
            <ActionIcon name="copy" />
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            aria-label={t('miners.edit', { name: m.name })}
            onClick={() => setEditing(m)}
          >
            <ActionIcon name="edit" />
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            aria-label={t('miners.delete', { name: m.name })}
            onClick={() => setDeleting(m)}
          >
            <ActionIcon name="trash" />
          </button>
        </span>
      ),
    },
  ];

  const undeclared = miners.data?.undeclared ?? [];
  // Never "no miners" while workers mine: the live ones are offered just below.
  const emptyText =
    undeclared.length > 0
      ? t('miners.emptyWithWorkers', { count: undeclared.length })
      : filter === 'all'
        ? t('miners.emptyAll')
        : t('miners.empty', { type: t(`miners.tabs.${filter}`) });
  return (
    <div className="miners">
      <Tabs
        idBase="miners"
        label={t('miners.tabsLabel')}
        value={filter}
        onChange={setFilter}
        tabs={FILTERS.map((f) => ({ id: f, label: t(`miners.tabs.${f}`) }))}
      />
      <TabPanel idBase="miners" value={filter}>
        {miners.isPending ? <Spinner /> : null}
        {miners.isError ? (
          <ErrorBanner message={t('miners.loadError')} onRetry={() => void miners.refetch()} />
        ) : null}
        {miners.data ? (
          <Table
            caption={t('dashboard.yourMiners')}
            columns={columns}
            rows={miners.data.miners}
            rowKey={(m) => String(m.id)}
            empty={<p className="muted">{emptyText}</p>}
          />
        ) : null}
        <UndeclaredWorkers workers={undeclared} onDeclare={setDeclaring} />
      </TabPanel>
      <EditMinerModal miner={editing} onClose={() => setEditing(null)} notify={notify} />
      <DeleteMinerModal miner={deleting} onClose={() => setDeleting(null)} notify={notify} />
      <AddMinerModal
        type={declaring?.type ?? null}
        prefill={prefill}
        onClose={() => setDeclaring(null)}
        notify={notify}
      />
    </div>
  );
}

function prefillOf(worker: UndeclaredWorker) {
  return { name: worker.name, worker: worker.name, algorithm: worker.algorithm };
}
