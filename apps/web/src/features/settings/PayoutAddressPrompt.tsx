// Shown while the account has no payout address for any coin (none set, none pending): nothing
// can be paid out. Each coin's own missing address is shown on its row in Settings → Wallet.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings } from '../../lib/queries';
import type { Settings } from '../../lib/api-types';
import '../revenue/money.css';

/** The one rule: an account without a payout address for any coin, set or pending, cannot be paid. */
export function lacksPayoutAddress(settings: Settings | undefined): boolean {
  return (
    settings !== undefined &&
    settings.payouts.every((payout) => payout.address === null && payout.pendingAddress === null)
  );
}

/** Where the payout address is set: Settings, Wallet tab. */
export const PAYOUT_ADDRESS_SETTING = '/settings?tab=wallet';

export function PayoutAddressPrompt() {
  const { t } = useTranslation();
  const settings = useSettings();
  if (!lacksPayoutAddress(settings.data)) return null;
  return (
    <div className="banner banner--warning payout-prompt" role="status">
      <p>
        <strong>{t('revenue.money.noAddressTitle')}</strong> {t('revenue.money.noAddressBody')}
      </p>
      <Link className="btn btn--primary btn--sm" to={PAYOUT_ADDRESS_SETTING}>
        {t('revenue.money.noAddressAction')}
      </Link>
    </div>
  );
}
