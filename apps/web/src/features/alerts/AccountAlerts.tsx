import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { useAccountAlerts, useSaveAccountThresholds } from './api';
import { ThresholdFields } from './ThresholdFields';
import { WebhookForm } from './WebhookForm';

/** Settings -> Notifications: the default alert thresholds of the account's workers, and the webhook. */
export function AccountAlerts() {
  const { t } = useTranslation();
  const alerts = useAccountAlerts();
  const save = useSaveAccountThresholds();
  if (alerts.isPending) return <Spinner />;
  if (alerts.isError)
    return <ErrorBanner message={errorMessage(alerts.error, t)} onRetry={() => void alerts.refetch()} />;
  const { bounds } = alerts.data;
  return (
    <div className="stack">
      <section className="stack" aria-labelledby="thresholds-title">
        <h3 id="thresholds-title">{t('alertSettings.accountTitle')}</h3>
        <p className="muted">{t('alertSettings.accountHint')}</p>
        <ThresholdFields
          bounds={bounds}
          initial={alerts.data}
          inherited={{ offlineMinutes: bounds.poolOfflineMinutes, dropPercent: bounds.poolDropPercent }}
          pending={save.isPending}
          serverFields={save.error instanceof ApiError ? save.error.fields : {}}
          onSubmit={(values) => save.mutate(values)}
          submitLabel={t('alertSettings.save')}
        />
        {save.isSuccess ? (
          <p className="banner banner--success" role="status">
            {t('alertSettings.saved')}
          </p>
        ) : null}
      </section>
      <WebhookForm webhook={alerts.data.webhook} />
    </div>
  );
}
