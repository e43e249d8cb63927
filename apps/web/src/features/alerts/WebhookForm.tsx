import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook } from '@manjam/contract';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useSaveWebhook, useTestWebhook } from './api';

/** The alert webhook: one https URL (a Telegram or Discord bot URL), a test button, the last outcome. */
export function WebhookForm({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(webhook.url ?? '');
  const save = useSaveWebhook();
  const test = useTestWebhook();
  const failure = save.error ?? test.error;
  const fields = failure instanceof ApiError ? failure.fields : {};
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    test.reset();
    save.mutate(url.trim() === '' ? null : url.trim());
  };
  return (
    <section className="stack" aria-labelledby="webhook-title">
      <h3 id="webhook-title">{t('alertSettings.webhook.title')}</h3>
      <p className="muted">{t('alertSettings.webhook.hint')}</p>
      <form noValidate onSubmit={submit} className="inline-form">
        <TextField
          label={t('alertSettings.webhook.url')}
          type="url"
          ltr
          value={url}
          onChange={setUrl}
          placeholder="https://"
          error={fields.url}
        />
        <div className="row">
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {t('alertSettings.webhook.save')}
          </button>
          {webhook.url ? (
            <button
              type="button"
              className="btn btn--ghost"
              disabled={test.isPending}
              onClick={() => test.mutate()}
            >
              {t('alertSettings.webhook.test')}
            </button>
          ) : null}
        </div>
      </form>
      {failure && !fields.url ? <ErrorBanner message={errorMessage(failure, t)} /> : null}
      {test.data?.delivered ? (
        <p className="banner banner--success" role="status">
          {t('alertSettings.webhook.testDelivered')}
        </p>
      ) : null}
      {webhook.lastDeliveredAt ? (
        <p className="muted">
          {t('alertSettings.webhook.lastDelivered', { when: formatDateTime(webhook.lastDeliveredAt) })}
        </p>
      ) : null}
      {webhook.lastError && webhook.lastErrorAt ? (
        <p className="field__error" role="alert">
          {t('alertSettings.webhook.lastError', { when: formatDateTime(webhook.lastErrorAt) })}{' '}
          <Ltr mono={false}>{webhook.lastError}</Ltr>
        </p>
      ) : null}
    </section>
  );
}
