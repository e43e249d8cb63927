import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Icon } from '../../components/Icon';
import { Ltr } from '../../components/Ltr';
import { Private } from '../../components/Private';
import { useAuth } from '../../lib/auth';
import { formatNumber, shortenAddress } from '../../lib/format';
import { coinBalances, coinText } from '../../features/dashboard/CoinBalances';
import { FigurePlaceholder, FiguresError } from '../../features/hashrate/FigureStates';
import { AlgorithmHashrates } from '../../features/hashrate/AlgorithmHashrates';
import { useIsOperator, useMe } from '../../lib/queries';
import type { User } from '../../lib/api-types';
import { LanguageSwitch } from './LanguageSwitch';
import { visibleNavItems } from './navItems';

export interface SidebarProps {
  open: boolean;
  onToggle: () => void;
}

/** Whether the profile's figures have come (GET /api/me), failed, or are on the way. */
export type FiguresState = 'loading' | 'error' | 'ready';

/**
 * The profile card: the name and wallet, then the figures of GET /api/me — a placeholder for each
 * until its first answer, a plain line when it failed, never a 0 that only means "not loaded".
 */
export function ProfileCard({ user, figures }: { user: User | null | undefined; figures: FiguresState }) {
  const { t } = useTranslation();
  const ready = figures === 'ready' && user ? user : null;
  return (
    <section className="profile-card" aria-label={t('sidebar.profile')}>
      <p className="profile-card__name">{user?.username || t('sidebar.fallbackName')}</p>
      {user?.walletAddress ? (
        <p className="profile-card__wallet">
          <Ltr title={user.walletAddress}>{shortenAddress(user.walletAddress)}</Ltr>
        </p>
      ) : null}
      {figures === 'error' ? (
        <FiguresError />
      ) : (
        <dl className="profile-card__stats">
          <div>
            <dt>{t('sidebar.activeWorkers')}</dt>
            <dd className="tabular">{ready ? formatNumber(ready.activeWorkers) : <FigurePlaceholder />}</dd>
          </div>
          <div>
            <dt>{t('sidebar.hashrate')}</dt>
            <dd>
              {ready ? <AlgorithmHashrates hashrates={ready.hashrates} compact /> : <FigurePlaceholder />}
            </dd>
          </div>
          <div>
            <dt>{t('sidebar.balance')}</dt>
            <dd>
              {ready ? (
                <ul className="profile-card__balances">
                  {coinBalances(ready).map((b) => (
                    <li key={b.coin}>
                      <Private kind="balance">
                        <Ltr mono={false}>{coinText(b.amount, b.coin)}</Ltr>
                      </Private>
                    </li>
                  ))}
                </ul>
              ) : (
                <FigurePlaceholder />
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** Side navigation for signed-in users: 250px open, 70px closed, hidden at 768px and below. */
export function Sidebar({ open, onToggle }: SidebarProps) {
  const { t } = useTranslation();
  const { isSignedIn, user: storedUser } = useAuth();
  const me = useMe();
  const operator = useIsOperator();
  const items = visibleNavItems(isSignedIn, operator);
  return (
    <aside
      className={`sidebar${open ? ' sidebar--open' : ' sidebar--closed'}`}
      aria-label={t('sidebar.label')}
    >
      <button type="button" className="icon-btn sidebar__toggle" aria-expanded={open} onClick={onToggle}>
        <Icon name="chevron" className={open ? 'flip-open' : ''} />
        <span className="visually-hidden">{open ? t('sidebar.collapse') : t('sidebar.expand')}</span>
      </button>
      {open && isSignedIn ? (
        <ProfileCard
          user={me.data ?? storedUser}
          figures={me.data ? 'ready' : me.isError ? 'error' : 'loading'}
        />
      ) : null}
      <nav aria-label={t('sidebar.nav')}>
        <ul className="sidebar__links">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to === '/'}
                className="sidebar__link"
                title={open ? undefined : t(item.labelKey)}
              >
                <Icon name={item.icon} />
                <span className={open ? '' : 'visually-hidden'}>{t(item.labelKey)}</span>
              </NavLink>
            </li>
          ))}
          {isSignedIn ? (
            <li>
              <NavLink to="/logout" className="sidebar__link">
                <Icon name="logout" />
                <span className={open ? '' : 'visually-hidden'}>{t('nav.logout')}</span>
              </NavLink>
            </li>
          ) : null}
        </ul>
      </nav>
      {open ? <LanguageSwitch className="sidebar__lang" /> : null}
    </aside>
  );
}
