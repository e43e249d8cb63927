import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CodeField, TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import type { LoginRequest, LoginResponse } from '../../lib/api-types';
import { clearSignOutReason, signIn, signOutReason } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { useAccountHelp } from '../../lib/queries';
import { OperatorContact } from '../../features/support/OperatorContact';
import { hasErrors, validateLogin, type LoginErrors } from '../../lib/validation';
import '../auth.css';

export const LOGIN_REDIRECT_MS = 1000;

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const help = useAccountHelp();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  /** The second factor is typed as a recovery code (sent in the same `totp` field; the server tells them apart). */
  const [recovery, setRecovery] = useState(false);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Signed out by Auto Logout (the server answered session-idle): said once, on this visit.
  const [idle] = useState(() => signOutReason() === 'idle');
  useEffect(() => {
    if (idle) clearSignOutReason();
  }, [idle]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const found = validateLogin({ email, password });
    setErrors(found);
    setServerError('');
    if (hasErrors(found)) return;
    setSubmitting(true);
    try {
      const body: LoginRequest = {
        email: email.trim(),
        password,
        ...(needsTotp && totp ? { totp: totp.trim() } : {}),
      };
      const result = await apiFetch<LoginResponse>('/api/auth/login', { method: 'POST', body });
      setSuccess(true);
      // Sign in when leaving: signing in at once would redirect before the message shows.
      timer.current = setTimeout(() => {
        signIn(result.token, result.user);
        void navigate('/dashboard', { replace: true });
      }, LOGIN_REDIRECT_MS);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'totp-required') setNeedsTotp(true);
      // Throttled (429): this source failed too often; the page says so in the reader's language.
      const throttled = error instanceof ApiError && error.code === 'too-many-attempts';
      setServerError(throttled ? t('login.throttled') : errorMessage(error, t, t('login.failed')));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="auth-page container">
      <section className="auth-card card" aria-labelledby="login-title">
        <h1 id="login-title">{t('login.title')}</h1>
        <p className="muted">{t('login.subtitle')}</p>
        {success ? (
          <p className="banner banner--success" role="status">
            {t('login.success')}
          </p>
        ) : null}
        {idle && !success ? (
          <p className="banner banner--info" role="status">
            {t('login.idleLoggedOut')}
          </p>
        ) : null}
        {serverError ? <ErrorBanner message={serverError} /> : null}
        <form noValidate onSubmit={(event) => void submit(event)}>
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            ltr
            value={email}
            onChange={setEmail}
            error={errors.email ? t(errors.email) : undefined}
          />
          <TextField
            label={t('login.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password ? t(errors.password) : undefined}
          />
          {needsTotp && !recovery ? (
            <CodeField label={t('login.totp')} hint={t('login.totpHint')} value={totp} onChange={setTotp} />
          ) : null}
          {needsTotp && recovery ? (
            <TextField
              label={t('login.recovery')}
              hint={t('login.recoveryHint')}
              autoComplete="off"
              maxLength={24}
              ltr
              value={totp}
              onChange={setTotp}
            />
          ) : null}
          {needsTotp ? (
            <button
              type="button"
              className="btn btn--ghost btn--block"
              onClick={() => {
                setRecovery(!recovery);
                setTotp('');
              }}
            >
              {recovery ? t('login.useTotp') : t('login.useRecovery')}
            </button>
          ) : null}
          <button type="submit" className="btn btn--primary btn--block" disabled={submitting || success}>
            {submitting ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
        <p className="auth-card__links">
          <Link to="/forgot-password">{t('login.forgot')}</Link>
          <span>
            {t('login.noAccount')} <Link to="/register">{t('login.registerLink')}</Link>
          </span>
        </p>
        {help.data?.email === false ? (
          <div className="auth-card__help">
            <p className="muted">{t('login.forgotNoEmail')}</p>
            <OperatorContact className="muted" />
          </div>
        ) : null}
      </section>
    </div>
  );
}
