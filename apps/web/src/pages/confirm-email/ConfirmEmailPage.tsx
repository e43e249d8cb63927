import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ApiError, apiFetch } from '../../lib/api';
import type { ConfirmEmailRequest } from '../../lib/api-types';
import '../auth.css';

type State = 'working' | 'done' | 'invalid' | 'usernameTaken' | 'failed';

/** The state a failed confirmation shows, by the error `code` the server answered. */
function failure(error: unknown): State {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.code === 'confirmation-invalid' || error.code === 'validation-failed') return 'invalid';
  if (error.code === 'username-taken') return 'usernameTaken';
  return 'failed';
}

/**
 * The page of the link a registration mails (`/confirm-email#token=...`): the token sits in the
 * fragment, so it never reaches a server log; it is sent once and creates the account.
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  const [state, setState] = useState<State>('working');
  const sent = useRef(false);

  useEffect(() => {
    // Once per page: the link works once, and a second call (React's strict mode) would answer "used".
    if (sent.current) return;
    sent.current = true;
    const token = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
    const body: ConfirmEmailRequest = { token };
    apiFetch('/api/auth/confirm-email', { method: 'POST', body }).then(
      () => setState('done'),
      (error: unknown) => setState(failure(error)),
    );
  }, [hash]);

  return (
    <div className="auth-page container">
      <section className="auth-card card" aria-labelledby="confirm-title" aria-busy={state === 'working'}>
        <h1 id="confirm-title">{t('confirmEmail.title')}</h1>
        {state === 'working' ? <p className="muted">{t('confirmEmail.working')}</p> : null}
        {state === 'done' ? (
          <p className="banner banner--success" role="status">
            {t('confirmEmail.done')}
          </p>
        ) : null}
        {state !== 'working' && state !== 'done' ? (
          <ErrorBanner message={t(`confirmEmail.${state}`)} />
        ) : null}
        <p className="auth-card__links">
          {state === 'done' ? (
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
