// One coin's payout settings: its address (wrapping, with copy) or "not set", its pending change
// with the date it takes effect, its threshold in the coin's unit with the allowed range, and the
// forms that change them (PUT /api/settings/payout-address and /payout-threshold).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { Ltr } from '../../components/Ltr';
import type { PayoutSetting } from '../../lib/api-types';
import { formatCoin, formatDateTime } from '../../lib/format';
import { PayoutAddressForm } from './PayoutAddressForm';
import { PayoutThresholdForm } from './PayoutThresholdForm';
import { isolate } from './isolate';

export function PayoutCoinRow({ payout, twoFactor }: { payout: PayoutSetting; twoFactor: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const { coin } = payout;
  return (
    <section className="card payout-coin" aria-labelledby={`payout-${coin}`}>
      <h4 id={`payout-${coin}`} className="payout-coin__title">
        {t(`coins.${coin}`)}
      </h4>
      <div className="payout-coin__address">
        {payout.address ? (
          <>
            <Ltr className="payout-coin__wrap">{payout.address}</Ltr>
            <CopyButton
              text={payout.address}
              className="btn btn--ghost btn--sm"
              ariaLabel={t('settings.wallet.copyAddress', { coin: isolate(coin) })}
            />
          </>
        ) : (
          <span className="muted">{t('settings.wallet.notSetFor', { coin: isolate(coin) })}</span>
        )}
        {!editing ? (
          <button
            type="button"
            className={payout.address ? 'btn btn--ghost btn--sm' : 'btn btn--primary btn--sm'}
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            {payout.address
              ? t('settings.wallet.edit')
              : t('settings.wallet.setFor', { coin: isolate(coin) })}
          </button>
        ) : null}
      </div>
      {payout.pendingAddress ? (
        <p className="banner banner--info payout-coin__pending">
          {/* One flex child: the banner is a flex row, and the sentence must flow as one text. */}
          <span>
            {t('settings.wallet.pendingLabel')}{' '}
            <Ltr className="payout-coin__wrap">{payout.pendingAddress}</Ltr>{' '}
            {t('settings.wallet.pendingFrom', {
              date: payout.pendingEffectiveAt ? formatDateTime(payout.pendingEffectiveAt) : '—',
            })}
          </span>
        </p>
      ) : null}
      {saved ? (
        <p className="banner banner--success" role="status">
          {t('settings.wallet.saved')}
        </p>
      ) : null}
      {editing ? (
        <PayoutAddressForm
          coin={coin}
          twoFactor={twoFactor}
          onDone={(ok) => {
            setEditing(false);
            setSaved(ok);
          }}
        />
      ) : null}
      <p className="payout-coin__threshold">
        {t('settings.wallet.threshold')}: <Ltr mono={false}>{formatCoin(payout.threshold, coin)}</Ltr>
      </p>
      <PayoutThresholdForm payout={payout} />
    </section>
  );
}
