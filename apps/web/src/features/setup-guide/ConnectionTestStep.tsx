// Step 4: Test Connection with a visible progress bar and countdown; no random outcome.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectionTest } from './useConnectionTest';

export interface ConnectionTestStepProps {
  workerName: string;
  /** Called once when the API confirms the worker connected. */
  onConnected?: () => void;
}

export function ConnectionTestStep({ workerName, onConnected }: ConnectionTestStepProps) {
  const { t } = useTranslation();
  const test = useConnectionTest(workerName);
  const connected = test.state === 'connected';

  useEffect(() => {
    if (connected) onConnected?.();
  }, [connected, onConnected]);

  const remaining = Math.max(0, Math.ceil((test.timeoutMs - test.elapsedMs) / 1000));
  return (
    <div className="stack">
      <p>{t('setupGuide.step4.body')}</p>
      <div className="row">
        <button type="button" className={`btn ${connected ? 'btn--ghost' : 'btn--primary'}`} onClick={test.start} disabled={test.state === 'testing' || connected}>
          {connected ? t('setupGuide.step4.connected') : t('setupGuide.step4.test')}
        </button>
      </div>
      {test.state === 'testing' ? (
        <div className="connection-progress">
          <p>{t('setupGuide.step4.testing', { worker: '\u2066' + workerName + '\u2069' })}</p>
          <progress max={test.timeoutMs} value={test.elapsedMs} aria-label={t('setupGuide.step4.progress')} />
          <p className="muted tabular">{t('setupGuide.step4.remaining', { count: remaining })}</p>
        </div>
      ) : null}
      <div role="status" aria-live="polite">
        {connected ? (
          <p className="banner banner--success">{t('setupGuide.step4.success')}</p>
        ) : null}
        {test.state === 'failed' ? <p className="banner banner--error">{t('setupGuide.step4.failed')}</p> : null}
      </div>
    </div>
  );
}
