import type { OperatorActionPage } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table } from '../../components';
import { formatDateTime } from '../../lib/format';
import { Pager } from '../revenue/Pager';
import { OPERATOR_PAGE_SIZE, useOperatorActions } from './api';

type Action = OperatorActionPage['items'][number];

/** The audit log: every console action, who did it, from where and when. */
export function AuditSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const actions = useOperatorActions(page);
  if (actions.isPending) return <Spinner size="lg" />;
  if (actions.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void actions.refetch()} />;
  return (
    <div className="operator-section">
      <Table<Action>
        caption={t('operator.tabs.audit')}
        rows={actions.data.items}
        rowKey={(a) => a.id}
        empty={t('operator.audit.none')}
        columns={[
          { key: 'at', header: t('operator.audit.at'), render: (a) => formatDateTime(a.at) },
          { key: 'who', header: t('operator.audit.who'), render: (a) => <Ltr>{a.email}</Ltr> },
          { key: 'from', header: t('operator.audit.from'), render: (a) => <Ltr>{a.ip}</Ltr> },
          {
            key: 'action',
            header: t('operator.audit.action'),
            render: (a) => t(`operator.audit.actions.${a.action}`),
          },
          {
            key: 'target',
            header: t('operator.audit.target'),
            render: (a) => <Ltr className="operator-hash">{a.target}</Ltr>,
          },
        ]}
      />
      <Pager page={page} pageSize={OPERATOR_PAGE_SIZE} total={actions.data.total} onPage={setPage} />
    </div>
  );
}
