// /operator: the operator console. Only operators reach it (routes.tsx OperatorOnly);
// should the server refuse anyway (role revoked: 404; no TOTP sign-in: 403 totp-required), the
// page shows the 404 page or the server's reason.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { TabPanel, Tabs, type TabItem } from '../../components';
import { useOperatorHealth } from '../../features/operator/api';
import { AlertsSection } from '../../features/operator/AlertsSection';
import { AuditSection } from '../../features/operator/AuditSection';
import { BansSection } from '../../features/operator/BansSection';
import { BlocksSection } from '../../features/operator/BlocksSection';
import { ConfigSection } from '../../features/operator/ConfigSection';
import { HealthSection } from '../../features/operator/HealthSection';
import { OperatorsSection } from '../../features/operator/OperatorsSection';
import { PortsSection } from '../../features/operator/PortsSection';
import { RunsSection } from '../../features/operator/RunsSection';
import { TopWorkersSection } from '../../features/operator/TopWorkersSection';
import { WalletsSection } from '../../features/operator/WalletsSection';
import { NoticeRegion, useNotice } from '../../features/miners/notice';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import '../../features/dashboard/screens.css';
import '../../features/miners/miners.css';
import '../../features/operator/operator.css';

const SECTIONS = [
  'health',
  'alerts',
  'runs',
  'wallets',
  'ports',
  'blocks',
  'workers',
  'bans',
  'operators',
  'config',
  'audit',
] as const;
type Section = (typeof SECTIONS)[number];

export default function OperatorPage() {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('health');
  const notice = useNotice();
  // The health call also tells whether the server lets this session in at all.
  const gate = useOperatorHealth();
  if (gate.error instanceof ApiError && gate.error.status === 404) return <Navigate to="/404" replace />;
  const refused = gate.error instanceof ApiError && gate.error.status === 403;
  const tabs: TabItem<Section>[] = SECTIONS.map((id) => ({ id, label: t(`operator.tabs.${id}`) }));
  return (
    <div className="container page operator">
      <header className="screen-header">
        <h1>{t('operator.title')}</h1>
      </header>
      <p className="muted">{t('operator.intro')}</p>
      {refused ? (
        <p className="card" role="alert">
          {errorMessage(gate.error, t)}
        </p>
      ) : (
        <>
          <Tabs
            tabs={tabs}
            value={section}
            onChange={setSection}
            label={t('operator.sections')}
            idBase="operator"
          />
          <TabPanel idBase="operator" value={section}>
            {section === 'health' ? <HealthSection /> : null}
            {section === 'alerts' ? <AlertsSection notify={notice.show} /> : null}
            {section === 'runs' ? <RunsSection notify={notice.show} /> : null}
            {section === 'wallets' ? <WalletsSection /> : null}
            {section === 'ports' ? <PortsSection /> : null}
            {section === 'blocks' ? <BlocksSection /> : null}
            {section === 'workers' ? <TopWorkersSection /> : null}
            {section === 'bans' ? <BansSection notify={notice.show} /> : null}
            {section === 'operators' ? <OperatorsSection notify={notice.show} /> : null}
            {section === 'config' ? <ConfigSection /> : null}
            {section === 'audit' ? <AuditSection /> : null}
          </TabPanel>
        </>
      )}
      <NoticeRegion notice={notice.notice} onDismiss={notice.dismiss} />
    </div>
  );
}
