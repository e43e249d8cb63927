import type { OperatorAlert } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table } from '../../components';
import { formatCoin, formatDateTime } from '../../lib/format';
import type { NoticeApi } from '../miners/notice';
import { Pager } from '../revenue/Pager';
import { OPERATOR_PAGE_SIZE, useCloseAlert, useOperatorAlerts, useRecreditBlock } from './api';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * One alert: its message, and what to do (the runbook's advice and section); an open
 * block-returned alert also offers to credit the block's payees back.
 */
function AlertCard({
  alert,
  onClose,
  onRecredit,
}: {
  alert: OperatorAlert;
  onClose?: () => void;
  onRecredit?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <article className="card operator-alert" aria-label={alert.kind}>
      <header className="operator-alert__head">
        <span className={`badge badge--${alert.clearedAt ? 'muted' : 'warning'}`}>{alert.kind}</span>
        {alert.coin ? <span className="muted">{alert.coin}</span> : null}
        <span className="muted tabular">{formatDateTime(alert.raisedAt)}</span>
      </header>
      <p dir="auto">{alert.message}</p>
      <h3>{t('operator.alerts.whatToDo')}</h3>
      <p>{t(`operator.runbook.${alert.kind}`)}</p>
      <p className="muted">
        {t('operator.alerts.runbook')}:{' '}
        <Ltr>
          {alert.runbook.doc}#{alert.runbook.anchor}
        </Ltr>
      </p>
      <div className="operator-actions">
        {onRecredit ? (
          <button type="button" className="btn btn--primary btn--sm" onClick={onRecredit}>
            {t('operator.alerts.recredit')}
          </button>
        ) : null}
        {onClose ? (
          <button type="button" className="btn btn--primary btn--sm" onClick={onClose}>
            {t('operator.alerts.close')}
          </button>
        ) : null}
      </div>
    </article>
  );
}

export function AlertsSection({ notify }: { notify: NoticeApi['show'] }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const alerts = useOperatorAlerts(page);
  const close = useCloseAlert();
  const [closing, setClosing] = useState<OperatorAlert | null>(null);
  const recredit = useRecreditBlock();
  const [recrediting, setRecrediting] = useState<OperatorAlert | null>(null);
  if (alerts.isPending) return <Spinner size="lg" />;
  if (alerts.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void alerts.refetch()} />;
  const dismiss = () => {
    setClosing(null);
    close.reset();
  };
  const dismissRecredit = () => {
    setRecrediting(null);
    recredit.reset();
  };
  return (
    <div className="operator-section">
      <h2 className="section-title">{t('operator.alerts.open')}</h2>
      {alerts.data.open.length === 0 ? <p className="muted">{t('operator.alerts.none')}</p> : null}
      <div className="operator-alerts">
        {alerts.data.open.map((alert) => (
          <AlertCard
            key={alert.id}
            alert={alert}
            onClose={() => setClosing(alert)}
            {...(alert.blockId !== null ? { onRecredit: () => setRecrediting(alert) } : {})}
          />
        ))}
      </div>
      <h2 className="section-title">{t('operator.alerts.past')}</h2>
      <Table<OperatorAlert>
        caption={t('operator.alerts.past')}
        rows={alerts.data.past.items}
        rowKey={(a) => a.id}
        empty={t('operator.alerts.nonePast')}
        columns={[
          { key: 'kind', header: t('operator.alerts.kind'), render: (a) => a.kind },
          {
            key: 'coin',
            header: t('operator.alerts.coin'),
            render: (a) => a.coin ?? t('common.notAvailable'),
          },
          {
            key: 'message',
            header: t('operator.alerts.message'),
            render: (a) => <span dir="auto">{a.message}</span>,
          },
          { key: 'raised', header: t('operator.alerts.raised'), render: (a) => formatDateTime(a.raisedAt) },
          {
            key: 'cleared',
            header: t('operator.alerts.cleared'),
            render: (a) => (a.clearedAt ? formatDateTime(a.clearedAt) : t('common.notAvailable')),
          },
        ]}
      />
      <Pager page={page} pageSize={OPERATOR_PAGE_SIZE} total={alerts.data.past.total} onPage={setPage} />
      <ConfirmDialog
        open={closing !== null}
        title={t('operator.alerts.closeTitle')}
        body={t('operator.alerts.closeBody')}
        pending={close.isPending}
        error={close.error}
        onClose={dismiss}
        onConfirm={() => {
          if (!closing) return;
          close.mutate(closing.id, {
            onSuccess: () => {
              dismiss();
              notify(t('operator.alerts.closed'));
            },
          });
        }}
      />
      <ConfirmDialog
        open={recrediting !== null}
        title={t('operator.alerts.recreditTitle', { id: recrediting?.blockId ?? '' })}
        body={t('operator.alerts.recreditBody')}
        pending={recredit.isPending}
        error={recredit.error}
        onClose={dismissRecredit}
        onConfirm={() => {
          const blockId = recrediting?.blockId;
          if (!blockId) return;
          recredit.mutate(blockId, {
            onSuccess: (done) => {
              dismissRecredit();
              notify(
                t('operator.alerts.recredited', {
                  id: done.id,
                  amount: formatCoin(done.total, done.coin),
                }),
              );
            },
          });
        }}
      />
    </div>
  );
}
