import type { OperatorPayoutRun } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table, TextField } from '../../components';
import { formatCoin, formatDateTime, formatNumber } from '../../lib/format';
import type { NoticeApi } from '../miners/notice';
import { Pager } from '../revenue/Pager';
import { OPERATOR_PAGE_SIZE, useOperatorRuns, useSettleRun } from './api';
import { ConfirmDialog } from './ConfirmDialog';

const TXID = /^[0-9a-f]{64}$/;

type Settling = { run: OperatorPayoutRun; outcome: 'sent' | 'failed' } | null;

function SettleDialog({
  settling,
  onDone,
  notify,
}: {
  settling: Settling;
  onDone: () => void;
  notify: NoticeApi['show'];
}) {
  const { t } = useTranslation();
  const settle = useSettleRun();
  const [txid, setTxid] = useState('');
  const [txidError, setTxidError] = useState<string | undefined>();
  const close = () => {
    setTxid('');
    setTxidError(undefined);
    settle.reset();
    onDone();
  };
  const confirm = () => {
    if (!settling) return;
    const id = settling.run.id;
    const value = txid.trim().toLowerCase();
    if (settling.outcome === 'sent' && !TXID.test(value)) {
      setTxidError(t('operator.runs.txidInvalid'));
      return;
    }
    const request =
      settling.outcome === 'sent'
        ? { outcome: 'sent' as const, txid: value }
        : { outcome: 'failed' as const };
    settle.mutate(
      { id, request },
      {
        onSuccess: () => {
          close();
          notify(t('operator.runs.settled', { id }));
        },
      },
    );
  };
  const id = settling?.run.id ?? '';
  const sent = settling?.outcome === 'sent';
  return (
    <ConfirmDialog
      open={settling !== null}
      title={t(sent ? 'operator.runs.sentTitle' : 'operator.runs.failedTitle', { id })}
      body={t(sent ? 'operator.runs.sentBody' : 'operator.runs.failedBody')}
      pending={settle.isPending}
      error={settle.error}
      onClose={close}
      onConfirm={confirm}
      danger={!sent}
    >
      {sent ? (
        <TextField
          label={t('operator.runs.txidLabel')}
          value={txid}
          onChange={setTxid}
          error={txidError}
          ltr
          spellCheck={false}
          autoComplete="off"
        />
      ) : null}
    </ConfirmDialog>
  );
}

export function RunsSection({ notify }: { notify: NoticeApi['show'] }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const runs = useOperatorRuns(page);
  const [settling, setSettling] = useState<Settling>(null);
  if (runs.isPending) return <Spinner size="lg" />;
  if (runs.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void runs.refetch()} />;
  return (
    <div className="operator-section">
      <Table<OperatorPayoutRun>
        caption={t('operator.tabs.runs')}
        rows={runs.data.items}
        rowKey={(r) => r.id}
        empty={t('operator.runs.none')}
        columns={[
          { key: 'id', header: t('operator.runs.id'), render: (r) => <Ltr>{r.id}</Ltr> },
          { key: 'coin', header: t('operator.runs.coin'), render: (r) => r.coin },
          {
            key: 'status',
            header: t('operator.runs.status'),
            render: (r) => (
              <span
                className={`badge badge--${r.status === 'failed' ? 'danger' : r.status === 'intent' ? 'warning' : 'success'}`}
              >
                {t(`operator.runs.states.${r.status}`)}
              </span>
            ),
          },
          {
            key: 'payouts',
            header: t('operator.runs.payouts'),
            align: 'end',
            render: (r) => formatNumber(r.payouts),
          },
          {
            key: 'total',
            header: t('operator.runs.total'),
            align: 'end',
            render: (r) => formatCoin(r.total, r.coin),
          },
          {
            key: 'txid',
            header: t('operator.runs.txid'),
            render: (r) =>
              r.txid ? <Ltr className="operator-hash">{r.txid}</Ltr> : t('common.notAvailable'),
          },
          {
            key: 'failure',
            header: t('operator.runs.failure'),
            render: (r) =>
              r.failure ? (
                <span dir="auto">
                  {r.failure}
                  {r.error ? `: ${r.error}` : ''}
                </span>
              ) : (
                t('common.notAvailable')
              ),
          },
          { key: 'created', header: t('operator.runs.created'), render: (r) => formatDateTime(r.createdAt) },
          {
            key: 'actions',
            header: t('operator.runs.actions'),
            render: (r) =>
              r.settleable ? (
                <span className="operator-actions">
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    onClick={() => setSettling({ run: r, outcome: 'sent' })}
                  >
                    {t('operator.runs.settleSent')}
                  </button>
                  <button
                    type="button"
                    className="btn btn--danger btn--sm"
                    onClick={() => setSettling({ run: r, outcome: 'failed' })}
                  >
                    {t('operator.runs.settleFailed')}
                  </button>
                </span>
              ) : null,
          },
        ]}
      />
      <Pager page={page} pageSize={OPERATOR_PAGE_SIZE} total={runs.data.total} onPage={setPage} />
      <SettleDialog settling={settling} onDone={() => setSettling(null)} notify={notify} />
    </div>
  );
}
