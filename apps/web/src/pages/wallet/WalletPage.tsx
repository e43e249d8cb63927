import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { Private } from '../../components/Private';
import { SignInPrompt } from '../../components/SignInPrompt';
import { Spinner } from '../../components/Spinner';
import { useAuth } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { formatCoin, formatDateTime } from '../../lib/format';
import { useMe, useSettings } from '../../lib/queries';
import './wallet.css';

function WalletDetails() {
  const { t } = useTranslation();
  const me = useMe();
  const settings = useSettings();
  if (me.isPending || settings.isPending) return <Spinner size="lg" />;
  if (me.isError || settings.isError)
    return (
      <ErrorBanner
        message={errorMessage(me.error ?? settings.error, t, t('wallet.loadError'))}
        onRetry={() => {
          void me.refetch();
          void settings.refetch();
        }}
      />
    );
  const { data: user } = me;
  const { data: s } = settings;
  return (
    <div className="grid">
      <section className="card">
        <h2 className="card__title">{t('wallet.balance')}</h2>
        <p className="stat-card__value">
          <Private kind="balance">
            <Ltr mono={false}>{formatCoin(user.balance || '0', user.preferredCoin)}</Ltr>
          </Private>
        </p>
        <Link to="/payouts">{t('wallet.payoutsLink')}</Link>
      </section>
      <section className="card wallet-payouts">
        <h2 className="card__title">{t('wallet.payoutAddress')}</h2>
        <dl className="wallet-payouts__list">
          {s.payouts.map((payout) => (
            <div key={payout.coin} className="wallet-payouts__coin">
              <dt>{t(`coins.${payout.coin}`)}</dt>
              <dd>
                {payout.address ? (
                  <Ltr className="wallet-payouts__wrap">{payout.address}</Ltr>
                ) : (
                  <span className="muted">{t('wallet.notSet')}</span>
                )}
              </dd>
              {payout.pendingAddress ? (
                <dd className="muted">
                  {t('wallet.pending')} <Ltr className="wallet-payouts__wrap">{payout.pendingAddress}</Ltr>{' '}
                  {t('wallet.pendingFrom', {
                    date: payout.pendingEffectiveAt ? formatDateTime(payout.pendingEffectiveAt) : '—',
                  })}
                </dd>
              ) : null}
              <dd>
                {t('wallet.threshold')}: <Ltr mono={false}>{formatCoin(payout.threshold, payout.coin)}</Ltr>
              </dd>
            </div>
          ))}
        </dl>
        <Link to="/settings?tab=wallet">{t('wallet.manage')}</Link>
      </section>
    </div>
  );
}

export default function WalletPage() {
  const { t } = useTranslation();
  const { isSignedIn } = useAuth();
  return (
    <div className="container page">
      <h1>{t('wallet.title')}</h1>
      {isSignedIn ? <WalletDetails /> : <SignInPrompt message={t('wallet.signInPrompt')} />}
    </div>
  );
}
