// Step 4: Test Connection: the stages reached so far (connected and authorized, first share
// accepted) with what to do at each, a progress bar and countdown; no random outcome. The server
// judges by the worker's last accepted share, so a worker already sharing passes on the first ask;
// a failure names that last share when there was one.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { LOW_START_PASSWORD } from './algorithms';
import { useConnectionTest } from './useConnectionTest';

/** The stages in order; 'waiting' comes before the first one shown. */
const ORDER = ['waiting', 'authorized', 'sharing'] as const;
const STAGES = ['authorized', 'sharing'] as const;

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
  const worker = '\u2066' + workerName + '\u2069';
  // What the miner has reached: a finished test that saw a share shows every stage done.
  const shown = connected ? 'sharing' : test.stage;
  return (
    <div className="stack">
      <p>{t('setupGuide.step4.body')}</p>
      <div className="row">
        <button
          type="button"
          className={`btn ${connected ? 'btn--ghost' : 'btn--primary'}`}
          onClick={test.start}
          disabled={test.state === 'testing' || connected}
        >
          {connected ? t('setupGuide.step4.connected') : t('setupGuide.step4.test')}
        </button>
      </div>
      {test.state !== 'idle' ? (
        <ol className="connection-stages" aria-label={t('setupGuide.step4.stagesLabel')}>
          {STAGES.map((stage) => {
            const reached = ORDER.indexOf(stage) <= ORDER.indexOf(shown);
            return (
              <li
                key={stage}
                className={`connection-stage connection-stage--${reached ? 'done' : 'pending'}`}
              >
                <span aria-hidden="true">{reached ? '\u2713' : '\u25CB'}</span>{' '}
                {t(`setupGuide.step4.stage.${stage}`)}
                <span className="visually-hidden">{`, ${reached ? t('setupGuide.step4.stageDone') : t('setupGuide.step4.stagePending')}`}</span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {test.state === 'testing' ? (
        <div className="connection-progress">
          <p>{t(`setupGuide.step4.advice.${shown}`, { worker, lowPassword: LOW_START_PASSWORD })}</p>
          <progress max={test.timeoutMs} value={test.elapsedMs} aria-label={t('setupGuide.step4.progress')} />
          <p className="muted tabular">{t('setupGuide.step4.remaining', { count: remaining })}</p>
        </div>
      ) : null}
      <div role="status" aria-live="polite">
        {connected ? <p className="banner banner--success">{t('setupGuide.step4.success')}</p> : null}
        {test.state === 'failed' ? (
          <div className="banner banner--error">
            <p>{t('setupGuide.step4.failed')}</p>
            <p>
              {test.lastShareAt
                ? t('setupGuide.step4.lastShare', { worker, when: formatDateTime(test.lastShareAt) })
                : t('setupGuide.step4.failedHint', { worker })}
            </p>
          </div>
        ) : null}
        {test.state === 'stalled' ? (
          <p className="banner banner--warning">
            {t('setupGuide.step4.stalled', { worker, lowPassword: LOW_START_PASSWORD })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
