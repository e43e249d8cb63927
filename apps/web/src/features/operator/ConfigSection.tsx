import { useTranslation } from 'react-i18next';
import { CopyButton, ErrorBanner, Spinner } from '../../components';
import { useRunningConfig } from './api';

/** The configuration as the server runs it, read-only; the server has already replaced every secret. */
export function ConfigSection() {
  const { t } = useTranslation();
  const config = useRunningConfig();
  if (config.isPending) return <Spinner size="lg" />;
  if (config.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void config.refetch()} />;
  const text = JSON.stringify(config.data.config, null, 2);
  return (
    <div className="operator-section">
      <p className="muted">{t('operator.config.intro')}</p>
      <div className="operator-toolbar">
        <CopyButton text={text} label={t('operator.config.copy')} />
      </div>
      <pre className="operator-config card" dir="ltr" aria-label={t('operator.config.label')} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}
