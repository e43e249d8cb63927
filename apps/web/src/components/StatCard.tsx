import type { ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  /** Signed percent text such as "+12.5%"; green when it contains '+', else red (seed). */
  change?: string;
  /** Accessible description of the change, e.g. "compared with yesterday". */
  changeLabel?: string;
  icon?: ReactNode;
  /** More figures under the change line (e.g. today's accrued credits under the balance). */
  footer?: ReactNode;
}

export function changeTone(change: string): 'up' | 'down' {
  return change.includes('+') ? 'up' : 'down';
}

export function StatCard({ label, value, change, changeLabel, icon, footer }: StatCardProps) {
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
          <span dir="ltr" className="tabular">
            {change}
          </span>
          {changeLabel ? <span className="stat-card__change-label"> {changeLabel}</span> : null}
        </div>
      ) : null}
      {footer}
    </section>
  );
}
