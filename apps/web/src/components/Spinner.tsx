import { useTranslation } from 'react-i18next';

export interface SpinnerProps {
  /** Accessible text; defaults to "Loading...". */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  /** Show the label next to the spinner instead of only to screen readers. */
  showLabel?: boolean;
}

export function Spinner({ label, size = 'md', showLabel = false }: SpinnerProps) {
  const { t } = useTranslation();
  const text = label ?? t('common.loading');
  return (
    <div className={`spinner spinner--${size}`} role="status" aria-live="polite">
      <span className="spinner__ring" aria-hidden="true" />
      <span className={showLabel ? 'spinner__label' : 'visually-hidden'}>{text}</span>
    </div>
  );
}
