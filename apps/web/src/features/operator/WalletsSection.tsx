// The pool wallets: per live coin, the balance accounting last read (and when), what the pool owes
// its miners, what the next payout run would pay and when, and whether the wallet covers that run.
import type { OperatorWallet } from '@manjam/contract';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, FiguresAge, Spinner, Table } from '../../components';
import { formatAsOf, formatCoin, formatDateTime, formatNumber } from '../../lib/format';
import { useOperatorWallets } from './api';

export function WalletsSection() {
  const { t } = useTranslation();
  const wallets = useOperatorWallets();
  if (wallets.isPending) return <Spinner size="lg" />;
  if (wallets.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void wallets.refetch()} />;
  const { asOf } = wallets.data;
  const due = (w: OperatorWallet) =>
    w.nextRunAt === null || w.nextRunAt <= asOf ? t('operator.wallets.dueNow') : formatDateTime(w.nextRunAt);
  return (
    <div className="operator-section">
      <p className="muted">{t('operator.wallets.intro')}</p>
      <Table<OperatorWallet>
        caption={t('operator.wallets.caption')}
        rowKey={(w) => w.coin}
        rows={wallets.data.wallets}
        empty={t('operator.wallets.none')}
        columns={[
          { key: 'coin', header: t('operator.wallets.coin'), render: (w) => w.coin },
          {
            key: 'balance',
            header: t('operator.wallets.balance'),
            align: 'end',
            render: (w) =>
              w.balance === null || w.readAt === null ? (
                t('operator.wallets.notRead')
              ) : (
                <div className="operator-wallet">
                  <span>{formatCoin(w.balance, w.coin)}</span>
                  <FiguresAge
                    at={w.readAt}
                    behind={false}
                    upTo={(time) => t('operator.wallets.readAt', { time })}
                    late={(time) => t('operator.wallets.readAt', { time })}
                  />
                </div>
              ),
          },
          {
            key: 'owed',
            header: t('operator.wallets.owed'),
            align: 'end',
            render: (w) => formatCoin(w.owed, w.coin),
          },
          {
            key: 'next',
            header: t('operator.wallets.nextRun'),
            align: 'end',
            render: (w) =>
              t('operator.wallets.nextRunPays', {
                amount: formatCoin(w.nextRunAmount, w.coin),
                count: w.nextRunPayees,
                payees: formatNumber(w.nextRunPayees),
              }),
          },
          { key: 'due', header: t('operator.wallets.due'), render: due },
          {
            key: 'covers',
            header: t('operator.wallets.covers'),
            render: (w) =>
              w.covered === null ? (
                <span className="badge">{t('operator.wallets.unknown')}</span>
              ) : w.covered ? (
                <span className="badge badge--success">{t('operator.wallets.covered')}</span>
              ) : (
                <span className="badge badge--danger">
                  {t('operator.wallets.short', { amount: formatCoin(w.shortBy, w.coin) })}
                </span>
              ),
          },
        ]}
      />
      <p className="muted">{t('operator.wallets.asOf', { time: formatAsOf(asOf) })}</p>
    </div>
  );
}
