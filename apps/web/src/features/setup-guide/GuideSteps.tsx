// The five setup steps. A step completes when its continue action is done; the next opens.
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton, Ltr, TextField } from '../../components';
import { screensOfAlgorithm } from '../../coins/screens';
import { useAuth } from '../../lib/auth';
import { LOW_START_PASSWORD, recommendedPassword, type GuideAlgorithm } from './algorithms';
import { ConnectionTestStep } from './ConnectionTestStep';
import {
  completeStep,
  GUIDE_STEPS,
  INITIAL_PROGRESS,
  isStepCompleted,
  stratumUsername,
  validateWorkerName,
  type GuideStep,
} from './steps';

export interface GuideStepsProps {
  algorithm: GuideAlgorithm;
  host: string | undefined;
  port: number;
  /** Whether the pool accepts shares on this port (undefined while unknown). */
  live?: boolean | undefined;
  /** Names of the live algorithms, offered instead when this one is not live. */
  liveNames?: string;
  /** The pool's live Stratum V2 port for this algorithm, when it lists one with its authority key. */
  v2?: { port: number; authorityKey: string } | undefined;
}

function StepShell({
  step,
  title,
  active,
  done,
  children,
}: {
  step: GuideStep;
  title: string;
  active: boolean;
  done: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li
      className={`guide-step${active ? ' guide-step--active' : ''}${done ? ' guide-step--done' : ''}`}
      aria-current={active ? 'step' : undefined}
    >
      <h3 className="guide-step__title">
        <span className="guide-step__number" aria-hidden="true">
          {done ? '✓' : step}
        </span>
        <span className="visually-hidden">{t('setupGuide.stepLabel', { step })}: </span>
        {title}
        {done ? <span className="badge badge--success">{t('setupGuide.completed')}</span> : null}
      </h3>
      {active ? <div className="guide-step__body">{children}</div> : null}
    </li>
  );
}

export function GuideSteps({ algorithm, host, port, live, liveNames = '', v2 }: GuideStepsProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [progress, setProgress] = useState(INITIAL_PROGRESS);
  const [worker, setWorker] = useState('worker1');
  const [workerError, setWorkerError] = useState<string | undefined>();
  const complete = useCallback((step: GuideStep) => setProgress((p) => completeStep(p, step)), []);

  const username = stratumUsername(user?.username ?? 'username', worker);
  const url = host ? `stratum+tcp://${host}:${port}` : null;
  // The miner software of the algorithm's family, when it has a section of its own (Kaspa's).
  const Miners = algorithm.account === null ? undefined : screensOfAlgorithm(algorithm.account)?.Miners;
  // ASIC firmware with Stratum V2 (Braiins OS) takes the authority key as the URL's path.
  const v2Url =
    host && v2 && algorithm.hardware === 'asic'
      ? `stratum2+tcp://${host}:${v2.port}/${v2.authorityKey}`
      : null;
  // A CPU algorithm (RandomX) is mined with XMRig, whose command line takes the same three values;
  // the password shown, copied and recommended in the text is one value (recommendedPassword).
  const cpu = algorithm.hardware === 'cpu';
  const password = recommendedPassword(algorithm);
  const command = cpu && url ? `xmrig -o ${url} -u ${username} -p ${password}` : null;

  const submitWorker = (event: FormEvent): void => {
    event.preventDefault();
    const error = validateWorkerName(worker);
    setWorkerError(
      error === 'empty'
        ? t('setupGuide.step1.empty')
        : error === 'invalid'
          ? t('setupGuide.step1.invalid')
          : undefined,
    );
    if (!error) complete(1);
  };
  const continueButton = (step: GuideStep) => (
    <button type="button" className="btn btn--primary" onClick={() => complete(step)}>
      {t('setupGuide.continue')}
    </button>
  );
  const shell = (step: GuideStep) => ({
    step,
    active: progress.active === step && !isStepCompleted(progress, step),
    done: isStepCompleted(progress, step),
  });

  return (
    <ol className="guide-steps" aria-label={t('setupGuide.stepsLabel')}>
      <StepShell {...shell(1)} title={t('setupGuide.step1.title')}>
        <form className="stack" onSubmit={submitWorker} noValidate>
          <p>{t('setupGuide.step1.body')}</p>
          <TextField
            label={t('setupGuide.step1.label')}
            placeholder={t('setupGuide.step1.placeholder')}
            value={worker}
            onChange={setWorker}
            ltr
            error={workerError}
            maxLength={64}
          />
          <p className="muted">{t('setupGuide.step1.preview', { username: `\u2066${username}\u2069` })}</p>
          <div>
            <button type="submit" className="btn btn--primary">
              {t('setupGuide.continue')}
            </button>
          </div>
        </form>
      </StepShell>
      <StepShell {...shell(2)} title={t('setupGuide.step2.title')}>
        <p>
          {t(algorithm.hardware === 'asic' ? 'setupGuide.step2.body' : 'setupGuide.step2.bodyNoAsic', {
            algorithm: algorithm.name,
            software: algorithm.software.join(', '),
          })}
        </p>
        {continueButton(2)}
      </StepShell>
      <StepShell {...shell(3)} title={t('setupGuide.step3.title')}>
        {url && live === false ? (
          <p className="banner banner--info">
            {t('setupGuide.step3.notLive', { name: algorithm.name, port, live: liveNames })}
          </p>
        ) : url ? (
          <>
            <p>{t('setupGuide.step3.body')}</p>
            <dl className="pool-info">
              <div>
                <dt>{t('setupGuide.step3.url')}</dt>
                <dd className="row">
                  <Ltr>{url}</Ltr>
                  <CopyButton
                    text={url}
                    ariaLabel={t('common.copyField', { field: t('setupGuide.step3.url') })}
                  />
                </dd>
              </div>
              {v2Url ? (
                <div>
                  <dt>{t('setupGuide.step3.v2Url')}</dt>
                  <dd className="row">
                    <Ltr>{v2Url}</Ltr>
                    <CopyButton
                      text={v2Url}
                      ariaLabel={t('common.copyField', { field: t('setupGuide.step3.v2Url') })}
                    />
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>{t('setupGuide.step3.username')}</dt>
                <dd className="row">
                  <Ltr>{username}</Ltr>
                  <CopyButton
                    text={username}
                    ariaLabel={t('common.copyField', { field: t('setupGuide.step3.username') })}
                  />
                </dd>
              </div>
              <div>
                <dt>{t('setupGuide.step3.password')}</dt>
                <dd>
                  <Ltr>{password}</Ltr>
                </dd>
              </div>
            </dl>
            {v2Url ? <p className="muted">{t('setupGuide.step3.v2Note')}</p> : null}
            {cpu ? (
              <>
                <p className="muted">{t('setupGuide.step3.cpuDifficulty', { password })}</p>
                <p className="guide-command">
                  <Ltr>{command}</Ltr>
                </p>
              </>
            ) : (
              <p className="muted">
                {t('setupGuide.step3.startDifficulty', { lowPassword: LOW_START_PASSWORD })}
              </p>
            )}
            {host && Miners ? (
              <Miners host={host} port={port} username={username} worker={worker.trim()} />
            ) : null}
            <CopyButton
              text={
                command ??
                [
                  `${t('setupGuide.step3.url')}: ${url}`,
                  ...(v2Url ? [`${t('setupGuide.step3.v2Url')}: ${v2Url}`] : []),
                  `${t('setupGuide.step3.username')}: ${username}`,
                  `${t('setupGuide.step3.password')}: ${password}`,
                ].join('\n')
              }
              label={t('setupGuide.step3.copy')}
              successMessage={t('setupGuide.step3.copied')}
              failureMessage={t('setupGuide.step3.copyFailed')}
            />
          </>
        ) : (
          <p className="banner banner--error">{t('setupGuide.step3.unavailable')}</p>
        )}
        {continueButton(3)}
      </StepShell>
      <StepShell {...shell(4)} title={t('setupGuide.step4.title')}>
        {/* Stays open after a successful test so the miner reads the result; Continue moves on. */}
        <ConnectionTestStep workerName={worker.trim()} />
        {continueButton(4)}
      </StepShell>
      <StepShell {...shell(5)} title={t('setupGuide.step5.title')}>
        <p>{t('setupGuide.step5.body')}</p>
        <div className="row">
          <Link className="btn btn--primary" to="/dashboard">
            {t('setupGuide.step5.dashboard')}
          </Link>
          <Link className="btn btn--ghost" to="/workers">
            {t('setupGuide.step5.workers')}
          </Link>
        </div>
      </StepShell>
    </ol>
  );
}

export { GUIDE_STEPS };
