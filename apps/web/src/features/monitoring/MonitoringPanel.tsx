import type { Settings } from '../../lib/api-types';
import { ApiTokensSection } from './ApiTokensSection';
import { WatchLinksSection } from './WatchLinksSection';
import './monitoring.css';

/** Settings → Monitoring: watcher links and read-only API tokens. */
export function MonitoringPanel({ settings }: { settings: Settings }) {
  const coins = settings.payouts.map((payout) => payout.coin);
  return (
    <div className="monitoring stack">
      <WatchLinksSection twoFactor={settings.twoFactorAuth} coins={coins} />
      <ApiTokensSection twoFactor={settings.twoFactorAuth} />
    </div>
  );
}
