// Every coin's money in view: the balance of each coin the account holds (GET /api/me balances),
// and for each coin whose balance has reached its payout threshold without a payout address, a call
// to set one (shown on every page of the signed-in app: the balance cannot be paid until then).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr, Private } from '../../components';
import { formatCoin } from '../../lib/format';
import { useMe, useSettings } from '../../lib/queries';
import type { Settings, User } from '../../lib/api-types';
import { FigurePlaceholder, FiguresAsOf, FiguresError } from '../hashrate/FigureStates';
import { PAYOUT_ADDRESS_SETTING } from '../settings/PayoutAddressPrompt';

/** Every coin with a balance (GET /api/me balances), else the preferred coin's (zero when none). */
export function coinBalances(user: User): { coin: string; amount: string }[] {
  if (user.balances && user.balances.length > 0) return user.balances;
  return [{ coin: user.preferredCoin, amount: user.balance || '0' }];
}

/** An amount of base units in its coin ("0.012345 BTC"), or the raw units for a coin the app cannot format. */
export function coinText(amount: string, coin: string): string {
  try {
    return formatCoin(amount, coin);
  } catch {
    return `${amount} ${coin}`;
  }
}

/** Coins whose balance is at or above their payout threshold with no payout address, set or pending. */
export function unpayableBalances(
  user: User | undefined,
  settings: Settings | undefined,
): { coin: string; amount: string }[] {
  if (!user || !settings) return [];
  return (user.balances ?? []).filter((balance) => {
    const payout = settings.payouts.find((p) => p.coin === balance.coin);
    return (
      payout !== undefined &&
      payout.address === null &&
      payout.pendingAddress === null &&
      BigInt(balance.amount) >= BigInt(payout.threshold)
    );
  });
}

/** One alert per coin that cannot be paid, each with its call to action. */
export function UnpayableBalanceAlerts() {
  const { t } = useTranslation();
  const me = useMe();
  const settings = useSettings();
  const coins = unpayableBalances(me.data, settings.data);
  if (coins.length === 0) return null;
  return (
    <div className="stack">
      {coins.map(({ coin, amount }) => (
        <div key={coin} className="banner banner--warning payout-prompt" role="alert">
          <p>
            <strong>{t('figures.unpayableTitle', { coin })}</strong>{' '}
            {t('figures.unpayableBody', { coin, amount: coinText(amount, coin) })}
          </p>
          <Link className="btn btn--primary btn--sm" to={PAYOUT_ADDRESS_SETTING}>
            {t('figures.unpayableAction', { coin })}
          </Link>
        </div>
      ))}
    </div>
  );
}

/** The dashboard's card of every coin's balance. */
export function CoinBalancesCard() {
  const { t } = useTranslation();
  const me = useMe();
  let body;
  if (me.data) {
    const balances = coinBalances(me.data);
    body = (
      <ul className="coin-balances">
        {balances.map((b) => (
          <li key={b.coin}>
            <span className="coin-balances__coin">{b.coin}</span>{' '}
            <Private kind="balance">
              <Ltr mono={false}>{coinText(b.amount, b.coin)}</Ltr>
            </Private>
          </li>
        ))}
      </ul>
    );
  } else if (me.isError) body = <FiguresError />;
  else body = <FigurePlaceholder />;
  return (
    <section className="card stack" aria-labelledby="coin-balances-title">
      <h2 id="coin-balances-title">{t('figures.balances')}</h2>
      {body}
      {me.data ? <FiguresAsOf asOf={me.data.asOf} /> : null}
    </section>
  );
}
