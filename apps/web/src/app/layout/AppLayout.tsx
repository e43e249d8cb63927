import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { AssistantWidget } from '../../features/assistant/AssistantWidget';
import { UnpayableBalanceAlerts } from '../../features/dashboard/CoinBalances';
import { OfflineNotice } from '../../features/offline/OfflineNotice';
import { useAuth } from '../../lib/auth';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';
import { SMALL_SCREEN, useMediaQuery } from '../../lib/useMediaQuery';
import { AutoLogout } from '../AutoLogout';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

function useSidebarOpen(): [boolean, () => void] {
  const [open, setOpen] = useState(() => readStorage(STORAGE_KEYS.sidebarOpen) !== 'false');
  const toggle = (): void => {
    setOpen((current) => {
      writeStorage(STORAGE_KEYS.sidebarOpen, String(!current));
      return !current;
    });
  };
  return [open, toggle];
}

/** Top bar always; side navigation when signed in (hidden and closed at 768px and below). */
export function AppLayout() {
  const { t } = useTranslation();
  const { isSignedIn } = useAuth();
  const small = useMediaQuery(SMALL_SCREEN);
  const [storedOpen, toggle] = useSidebarOpen();
  const showSidebar = isSignedIn && !small;
  const open = storedOpen && !small;
  const shellClass = showSidebar
    ? `shell shell--sidebar ${open ? 'shell--sidebar-open' : 'shell--sidebar-closed'}`
    : 'shell';
  return (
    <div className={shellClass}>
      <a href="#main" className="skip-link">
        {t('nav.skip')}
      </a>
      <TopBar />
      {showSidebar ? <Sidebar open={open} onToggle={toggle} /> : null}
      <div className="shell__content">
        <main id="main" tabIndex={-1}>
          <OfflineNotice />
          {isSignedIn ? (
            <div className="container">
              <UnpayableBalanceAlerts />
            </div>
          ) : null}
          <Outlet />
        </main>
        <Footer />
      </div>
      <AssistantWidget />
      <AutoLogout />
    </div>
  );
}
