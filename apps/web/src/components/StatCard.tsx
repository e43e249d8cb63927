import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  /** Signed percent text such as "+12.5%" (green), "-3.0%" (red), "0.0%" or "new" (neutral: nothing to compare with). */
  change?: string;
  /** Accessible description of the change, e.g. "compared with yesterday". */
  changeLabel?: string;
  icon?: ReactNode;
  /** More figures under the change line (e.g. today's accrued credits under the balance). */
  footer?: ReactNode;
}

/** Green for growth, red for a fall, neutral for no change or no previous period ('new'). */
export function changeTone(change: string): 'up' | 'down' | 'neutral' {
  return change.startsWith('+') ? 'up' : change.startsWith('-') ? 'down' : 'neutral';
}

export function StatCard({ label, value, change, changeLabel, icon, footer }: StatCardProps) {
  const { t } = useTranslation();
  const isNew = change === 'new';
  return (
    <section className="stat-card" aria-label={label}>
      <div className="stat-card__head">
        <span className="stat-card__label">{label}</span>
        {icon ? (
          <span className="stat-card__icon" aria-hidden="true">
            {icon}
          </span>
        ) : null}
      </div>
      <div className="stat-card__value tabular">{value}</div>
      {change ? (
        <div
          className={`stat-card__change stat-card__change--${changeTone(change)}`}
          data-tone={changeTone(change)}
        >
          {isNew ? (
            <span>{t('common.changeNew')}</span>
          ) : (
            <span dir="ltr" className="tabular">
              {change}
            </span>
          )}
          {changeLabel && !isNew ? <span className="stat-card__change-label"> {changeLabel}</span> : null}
        </div>
      ) : null}
      {footer}
    </section>
  );
}
