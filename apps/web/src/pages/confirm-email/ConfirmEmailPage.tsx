import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ApiError, apiFetch } from '../../lib/api';
import type { ConfirmEmailRequest } from '../../lib/api-types';
import '../auth.css';

type State = 'working' | 'done' | 'invalid' | 'usernameTaken' | 'emailTaken' | 'failed';

/** What the link confirms: a registration (`#token=`) or an email change asked for in Settings (`#change=`). */
type Kind = 'registration' | 'change';

/** The state a failed confirmation shows, by the error `code` the server answered. */
function failure(error: unknown): State {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.code === 'confirmation-invalid' || error.code === 'validation-failed') return 'invalid';
  if (error.code === 'username-taken') return 'usernameTaken';
  if (error.code === 'email-taken') return 'emailTaken';
  return 'failed';
}

function linkOf(hash: string): { kind: Kind; token: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const change = fragment.get('change');
  return change !== null
    ? { kind: 'change', token: change }
    : { kind: 'registration', token: fragment.get('token') ?? '' };
}

/** The words of each state, per kind (an email change has its own). */
const TEXT = {
  registration: {
    working: 'confirmEmail.working',
    done: 'confirmEmail.done',
    invalid: 'confirmEmail.invalid',
    usernameTaken: 'confirmEmail.usernameTaken',
    emailTaken: 'confirmEmail.failed',
    failed: 'confirmEmail.failed',
  },
  change: {
    working: 'confirmEmail.change.working',
    done: 'confirmEmail.change.done',
    invalid: 'confirmEmail.change.invalid',
    usernameTaken: 'confirmEmail.failed',
    emailTaken: 'confirmEmail.change.emailTaken',
    failed: 'confirmEmail.failed',
  },
} as const satisfies Record<Kind, Record<State, string>>;

/**
 * The page of the links the pool mails: a registration (`/confirm-email#token=...`) and an email
 * change (`/confirm-email#change=...`). The token sits in the fragment, so it never reaches a
 * server log; it is sent once and creates the account or changes the email.
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  const [state, setState] = useState<State>('working');
  const sent = useRef(false);
  const { kind, token } = linkOf(hash);

  useEffect(() => {
    // Once per page: the link works once, and a second call (React's strict mode) would answer "used".
    if (sent.current) return;
    sent.current = true;
    const body: ConfirmEmailRequest = { token };
    const url = kind === 'change' ? '/api/auth/email/confirm' : '/api/auth/confirm-email';
    apiFetch(url, { method: 'POST', body }).then(
      () => setState('done'),
      (error: unknown) => setState(failure(error)),
    );
  }, [kind, token]);

  return (
    <div className="auth-page container">
      <section className="auth-card card" aria-labelledby="confirm-title" aria-busy={state === 'working'}>
        <h1 id="confirm-title">{t('confirmEmail.title')}</h1>
        {state === 'working' ? <p className="muted">{t(TEXT[kind][state])}</p> : null}
        {state === 'done' ? (
          <p className="banner banner--success" role="status">
            {t(TEXT[kind][state])}
          </p>
        ) : null}
        {state !== 'working' && state !== 'done' ? <ErrorBanner message={t(TEXT[kind][state])} /> : null}
        <p className="auth-card__links">
          {kind === 'change' ? (
            <Link to="/settings" className="btn btn--primary">
              {t('confirmEmail.change.toSettings')}
            </Link>
          ) : state === 'done' ? (
            <Link to="/login" className="btn btn--primary">
              {t('confirmEmail.toLogin')}
            </Link>
          ) : (
            <Link to="/register">{t('confirmEmail.toRegister')}</Link>
          )}
        </p>
      </section>
    </div>
  );
}
