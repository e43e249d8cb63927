import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const isOnline = (): boolean => navigator.onLine;

/**
 * Says the app is offline while the browser has no network: the installed app opens from its
 * cached shell (sw.js), and its figures cannot be brought up to date until the network is back.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  if (online) return null;
  return (
    <p className="banner banner--warning offline-notice" role="status">
      {t('offline.notice')}
    </p>
  );
}
