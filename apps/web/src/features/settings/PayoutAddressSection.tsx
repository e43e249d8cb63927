// Settings → Wallet: one row per coin the pool mines, each with its own payout address (and its
// pending change), its own threshold in the coin's unit, and its own save.
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../lib/api-types';
import { PayoutCoinRow } from './PayoutCoinRow';
import { lacksPayoutAddress } from './PayoutAddressPrompt';
import './payout-coins.css';

export function PayoutAddressSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  return (
    <div className="settings-block payout-coins">
      <h3>{t('settings.wallet.perCoinTitle')}</h3>
      <p className="muted">{t('settings.wallet.perCoinHint')}</p>
      {lacksPayoutAddress(settings) ? (
        <p className="banner banner--warning" role="status">
          {t('settings.wallet.missing')}
        </p>
      ) : null}
      <ul className="payout-coins__list">
        {settings.payouts.map((payout) => (
          <li key={payout.coin}>
            <PayoutCoinRow payout={payout} twoFactor={settings.twoFactorAuth} />
          </li>
        ))}
      </ul>
    </div>
  );
}
