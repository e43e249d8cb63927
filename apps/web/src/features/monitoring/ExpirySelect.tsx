import { useTranslation } from 'react-i18next';
import { Select } from '../../components/Select';
import { formatDateTime } from '../../lib/format';
import { EXPIRY_CHOICES, type ExpiryChoice } from './queries';

const keyOf = (choice: ExpiryChoice): string => (choice === null ? 'never' : String(choice));

/** How long a new token or link lasts: 7, 30, 90 or 365 days, or until revoked. */
export function ExpirySelect({
  value,
  onChange,
}: {
  value: ExpiryChoice;
  onChange: (value: ExpiryChoice) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select<string>
      label={t('monitoring.expiry')}
      value={keyOf(value)}
      options={EXPIRY_CHOICES.map((choice) => ({
        value: keyOf(choice),
        label: choice === null ? t('monitoring.never') : t('monitoring.days', { count: choice }),
      }))}
      onChange={(key) => onChange(EXPIRY_CHOICES.find((choice) => keyOf(choice) === key) ?? null)}
    />
  );
}

/** A token's or link's state: revoked, expired, or when it expires. */
export function ExpiryState({ item }: { item: { expiresAt: string | null; revokedAt: string | null } }) {
  const { t } = useTranslation();
  if (item.revokedAt) return <>{t('monitoring.revoked')}</>;
  if (item.expiresAt && Date.parse(item.expiresAt) <= Date.now()) return <>{t('monitoring.expired')}</>;
  return (
    <>
      {item.expiresAt
        ? t('monitoring.expires', { date: formatDateTime(item.expiresAt) })
        : t('monitoring.never')}
    </>
  );
}

/** Whether a token or link still works (not revoked, not expired). */
export const isLive = (item: { expiresAt: string | null; revokedAt: string | null }): boolean =>
  !item.revokedAt && (!item.expiresAt || Date.parse(item.expiresAt) > Date.now());
