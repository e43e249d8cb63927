import { useTranslation } from 'react-i18next';
import { payoutStatusTone } from './format';

const KNOWN = ['completed', 'pending', 'failed'] as const;

/** completed green, pending orange, anything else red. */
export function PayoutStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = KNOWN.find((s) => s === status);
  return (
    <span className={`badge badge--${payoutStatusTone(status)}`}>
      {known ? t(`payouts.status.${known}`) : status}
    </span>
  );
}
