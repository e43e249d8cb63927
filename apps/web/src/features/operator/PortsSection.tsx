// The Stratum ports: per live port its coin, algorithm, number and dialect, the connections open on
// it (known only where the process answering runs the Stratum listeners), and its accepted shares
// per second over the last minute and hashrate over the last 10 minutes: the port's own, or its
// coin's (every port of the coin together, said under the figure) where the process runs no listener.
import type { OperatorPort } from '@manjam/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, FiguresAge, Ltr, Spinner, Table } from '../../components';
import { formatHashrate, formatNumber } from '../../lib/format';
import { useOperatorPorts } from './api';

export function PortsSection() {
  const { t } = useTranslation();
  const ports = useOperatorPorts();
  if (ports.isPending) return <Spinner size="lg" />;
  if (ports.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void ports.refetch()} />;
  const { asOf } = ports.data;
  /** A figure, and under a coin's figure shown for one of its ports, whose it is. */
  const figure = (p: OperatorPort, value: ReactNode): ReactNode =>
    p.scope === 'port' ? (
      value
    ) : (
      <>
        {value}
        <div className="muted">{t('operator.ports.coinWide', { coin: p.coin })}</div>
      </>
    );
  return (
    <div className="operator-section">
      <FiguresAge
        at={asOf}
        behind={false}
        upTo={(time) => t('operator.ports.readAt', { time })}
        late={(time) => t('operator.ports.readAt', { time })}
      />
      <p className="muted">{t('operator.ports.intro')}</p>
      <Table<OperatorPort>
        caption={t('operator.ports.caption')}
        rowKey={(p) => String(p.port)}
        rows={ports.data.ports}
        empty={t('operator.ports.none')}
        columns={[
          { key: 'port', header: t('operator.ports.port'), render: (p) => <Ltr>{String(p.port)}</Ltr> },
          { key: 'coin', header: t('operator.ports.coin'), render: (p) => p.coin },
          { key: 'algorithm', header: t('operator.ports.algorithm'), render: (p) => p.algorithm },
          {
            key: 'protocol',
            header: t('operator.ports.protocol'),
            render: (p) =>
              p.tls
                ? t('operator.ports.protocolTls', { protocol: p.protocol.toUpperCase() })
                : p.protocol.toUpperCase(),
          },
          {
            key: 'connections',
            header: t('operator.ports.connections'),
            align: 'end',
            render: (p) =>
              p.connections === null ? (
                <span className="muted">{t('operator.ports.notHere')}</span>
              ) : (
                formatNumber(p.connections)
              ),
          },
          {
            key: 'shares',
            header: t('operator.ports.sharesPerSecond'),
            align: 'end',
            render: (p) =>
              figure(p, formatNumber(p.sharesPerSecond, undefined, { maximumFractionDigits: 2 })),
          },
          {
            key: 'hashrate',
            header: t('operator.ports.hashrate'),
            align: 'end',
            render: (p) => figure(p, <Ltr mono={false}>{formatHashrate(p.hashrate)}</Ltr>),
          },
        ]}
      />
    </div>
  );
}
