import { useTranslation } from 'react-i18next';

export interface ErrorBannerProps {
  message: string;
  title?: string;
  onRetry?: () => void;
}

export function ErrorBanner({ message, title, onRetry }: ErrorBannerProps) {
  const { t } = useTranslation();
  return (
    <div className="banner banner--error" role="alert">
      <span className="banner__icon" aria-hidden="true">
        !
      </span>
      <div className="banner__body">
        {title ? <strong className="banner__title">{title}</strong> : null}
        <p>{message}</p>
      </div>
      {onRetry ? (
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}
