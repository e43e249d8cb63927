import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Toggle } from '../../components/Toggle';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { useSaveWorkerAlerts, useWorkerAlerts } from './api';
import { ThresholdFields } from './ThresholdFields';

/** The worker detail page's alert settings: on or off, and its own thresholds (empty: the account's). */
export function WorkerAlertsForm({ workerId }: { workerId: number }) {
  const { t } = useTranslation();
  const alerts = useWorkerAlerts(workerId);
  const save = useSaveWorkerAlerts(workerId);
  if (!alerts.data) return null;
  const current = alerts.data;
  const own = { offlineMinutes: current.offlineMinutes, dropPercent: current.dropPercent };
  return (
    <section className="card stack" aria-labelledby="worker-alerts-title">
      <h2 id="worker-alerts-title">{t('alertSettings.workerTitle')}</h2>
      <Toggle
        label={t('alertSettings.workerOn')}
        description={
          current.off
            ? t('alertSettings.workerOff')
            : t('alertSettings.inForce', {
                minutes: current.effectiveOfflineMinutes,
                percent: current.effectiveDropPercent,
              })
        }
        checked={!current.off}
        disabled={save.isPending}
        onChange={(on) => save.mutate({ ...own, off: !on })}
      />
      {current.off ? null : (
        <ThresholdFields
          key={`${current.offlineMinutes}-${current.dropPercent}`}
          bounds={current.bounds}
          initial={own}
          inherited={{
            offlineMinutes: current.effectiveOfflineMinutes,
            dropPercent: current.effectiveDropPercent,
          }}
          pending={save.isPending}
          serverFields={save.error instanceof ApiError ? save.error.fields : {}}
          onSubmit={(values) => save.mutate({ ...values, off: false })}
          submitLabel={t('alertSettings.save')}
        />
      )}
      {save.error && !(save.error instanceof ApiError && Object.keys(save.error.fields).length > 0) ? (
        <ErrorBanner message={errorMessage(save.error, t)} />
      ) : null}
    </section>
  );
}
