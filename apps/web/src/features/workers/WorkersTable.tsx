// Worker table: name with status dot and type, algorithm, hashrate over 10 min / 1 h / 24 h,
// reject rate, a 24 h sparkline, last seen, actions (details page, edit, inline delete confirmation).
// On a phone each row becomes a card (Table), so no column hides off-screen.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr, Private, Table, type Column } from '../../components';
import { errorMessage } from '../../lib/errors';
import { formatHashrate, formatNumber, formatRelative } from '../../lib/format';
import type { Worker } from '../api-types';
import { Sparkline } from '../hashrate/Sparkline';
import { StatusDot } from '../miners/MinersTable';
import { ActionIcon } from '../miners/ActionIcon';
import type { NoticeApi } from '../miners/notice';
import { OverLast } from '../hashrate/AlgorithmHashrates';

/** The averagedSeconds window of each hashrate column. */
const WINDOW_OF = { hashrate: 'realtime', hashrate1h: 'hour', hashrate24h: 'day' } as const;
import { useDeleteWorker } from './api';

/** A worker with a row (its first share was accepted); a connected one without it has id null. */
type StoredWorker = Worker & { id: number };
const isStored = (w: Worker): w is StoredWorker => w.id !== null;

export interface WorkersTableProps {
  workers: readonly Worker[];
  empty: ReactNode;
  onEdit: (worker: Worker) => void;
  notify: NoticeApi['show'];
}

export function WorkersTable({ workers, empty, onEdit, notify }: WorkersTableProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<number | null>(null);
  const remove = useDeleteWorker();

  const confirmDelete = (worker: StoredWorker): void => {
    remove.mutate(worker.id, {
      onSuccess: () => {
        setConfirming(null);
        notify(t('workers.deleted'), 'success');
      },
      onError: (e) => notify(t('workers.deleteFailed', { message: errorMessage(e, t) }), 'error'),
    });
  };

  // A connected worker with no accepted share yet has no id: no details, edit or delete until then.
  const actions = (w: Worker) => (isStored(w) ? storedActions(w) : null);

  const storedActions = (w: StoredWorker) =>
    confirming === w.id ? (
      <span
        className="row-actions inline-confirm"
        role="group"
        aria-label={t('workers.delete', { name: w.name })}
      >
        <span>{t('workers.confirmDelete')}</span>
        <button
          type="button"
          className="btn btn--danger btn--sm"
          onClick={() => confirmDelete(w)}
          disabled={remove.isPending}
        >
          {t('workers.yesDelete')}
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setConfirming(null)}>
          {t('workers.cancel')}
        </button>
      </span>
    ) : (
      <span className="row-actions">
        <Link
          className="btn btn--ghost btn--sm"
          aria-label={t('workers.viewDetails', { name: w.name })}
          to={`/workers/${w.id}`}
        >
          <ActionIcon name="info" />
        </Link>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          aria-label={t('workers.edit', { name: w.name })}
          onClick={() => onEdit(w)}
        >
          <ActionIcon name="edit" />
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          aria-label={t('workers.delete', { name: w.name })}
          onClick={() => setConfirming(w.id)}
        >
          <ActionIcon name="trash" />
        </button>
      </span>
    );

  const columns: Column<Worker>[] = [
    {
      key: 'name',
      header: t('workers.columns.name'),
      render: (w) => (
        <span className="worker-name">
          <StatusDot status={w.status} label="" />
          <span className="visually-hidden">{t(`workers.status.${w.status}`)}</span>
          <span className="badge badge--muted" title={t(`miners.types.${w.type}`)}>
            {w.type.toUpperCase()}
          </span>
          <Ltr mono={false}>{w.name}</Ltr>
        </span>
      ),
    },
    {
      key: 'algorithm',
      header: t('workers.columns.algorithm'),
      render: (w) => t(`miners.algorithms.${w.algorithm}`),
    },
    ...(['hashrate', 'hashrate1h', 'hashrate24h'] as const).map((key): Column<Worker> => ({
      key,
      header: <abbr title={t(`workers.columnLabels.${key}`)}>{t(`workers.columns.${key}`)}</abbr>,
      label: t(`workers.columnLabels.${key}`),
      align: 'end',
      render: (w) => (
        <Private kind="hashrate">
          <Ltr mono={false} className="tabular">
            {formatHashrate(w[key])}
          </Ltr>
          <OverLast seconds={w.averagedSeconds?.[WINDOW_OF[key]]} window={WINDOW_OF[key]} />
        </Private>
      ),
    })),
    {
      key: 'rejectRate',
      header: <abbr title={t('workers.columnLabels.rejectRate')}>{t('workers.columns.rejectRate')}</abbr>,
      label: t('workers.columnLabels.rejectRate'),
      align: 'end',
      render: (w) => (
        <Ltr mono={false} className="tabular">
          {formatNumber(w.rejectRate, undefined, { maximumFractionDigits: 1 })}%
        </Ltr>
      ),
    },
    {
      key: 'trend',
      header: t('workers.columns.trend'),
      render: (w) => (
        <Private kind="hashrate">
          <Sparkline values={w.sparkline} label={t('dashboard.hashrates.sparkline', { name: w.name })} />
        </Private>
      ),
    },
    {
      key: 'lastSeen',
      header: t('workers.columns.lastSeen'),
      render: (w) =>
        w.status === 'connected'
          ? t('workers.waitingForShare')
          : w.lastSeen
            ? formatRelative(w.lastSeen)
            : t('workers.never'),
    },
    { key: 'actions', header: t('workers.columns.actions'), align: 'end', render: actions },
  ];
  return (
    <Table
      caption={t('workers.title')}
      columns={columns}
      rows={workers}
      rowKey={(w) => (w.id === null ? `${w.coin}:${w.fullName}` : String(w.id))}
      empty={empty}
    />
  );
}
