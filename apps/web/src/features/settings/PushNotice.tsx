import { useTranslation } from 'react-i18next';
import type { PushOutcome } from '../notifications/push';

/** What the browser did with push after saving: on, off, or why it could not (setting kept). */
export function PushNotice({ outcome }: { outcome: PushOutcome }) {
  const { t } = useTranslation();
  const ok = outcome === 'subscribed' || outcome === 'unsubscribed';
  return (
    <p className={`banner ${ok ? 'banner--success' : 'banner--warning'}`} role={ok ? 'status' : 'alert'}>
      {t(`settings.pushOutcome.${outcome}`)}
    </p>
  );
}
