import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { Icon } from '../../components/Icon';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { useAuth } from '../../lib/auth';
import { useIsOperator } from '../../lib/queries';
import { LanguageSwitch } from './LanguageSwitch';
import { initials, visibleNavItems } from './navItems';

/** 80px top bar; logged-out and logged-in variants; a toggled menu at 960px and below (Escape closes it). */
export function TopBar() {
  const { t } = useTranslation();
  const { isSignedIn, user } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname]);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu (as it closes the dialogs and the bell's panel), focus back on its toggle.
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const username = user?.username ?? t('sidebar.fallbackName');
  const operator = useIsOperator();
  const items = visibleNavItems(isSignedIn, operator);
  return (
    <header className="topbar">
      <Link to="/" className="brand" aria-label={t('nav.homeAria')}>
        <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true">
          <path
            d="M5 25 16 6l11 19z"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinejoin="round"
          />
          <path d="M10.5 25 16 16l5.5 9" fill="currentColor" />
        </svg>
        <span className="brand__name">{t('brand.name')}</span>
      </Link>
      <button
        ref={toggleRef}
        type="button"
        className="icon-btn topbar__toggle"
        aria-expanded={menuOpen}
        aria-controls="topbar-menu"
        onClick={() => setMenuOpen((open) => !open)}
      >
        <Icon name={menuOpen ? 'close' : 'menu'} />
        <span className="visually-hidden">{t('nav.menu')}</span>
      </button>
      <div id="topbar-menu" className={`topbar__menu${menuOpen ? ' topbar__menu--open' : ''}`}>
        <nav aria-label={t('nav.main')}>
          <ul className="topbar__links">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === '/'} className="topbar__link">
                  {t(item.labelKey)}
                </NavLink>
              </li>
            ))}
            {!isSignedIn ? (
              <li>
                <NavLink to="/login" className="topbar__link">
                  {t('nav.login')}
                </NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="topbar__actions">
          <LanguageSwitch />
          {isSignedIn ? (
            <>
              <span className="topbar__user">
                <span className="avatar" aria-hidden="true">
                  {initials(username)}
                </span>
                <span className="topbar__username" title={username}>
                  {username}
                </span>
              </span>
              <Link to="/logout" className="btn btn--ghost btn--sm">
                {t('nav.logout')}
              </Link>
            </>
          ) : (
            <Link to="/register" className="btn btn--primary btn--sm">
              {t('nav.register')}
            </Link>
          )}
        </div>
      </div>
      {isSignedIn ? <NotificationBell /> : null}
    </header>
  );
}
