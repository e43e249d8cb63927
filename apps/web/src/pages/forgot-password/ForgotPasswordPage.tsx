import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { OperatorContact } from '../../features/support/OperatorContact';
import { ApiError, apiFetch } from '../../lib/api';
import type { PasswordResetConfirm, PasswordResetRequest } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { useAccountHelp } from '../../lib/queries';
import { PASSWORD_MIN, validateEmail, type ValidationKey } from '../../lib/validation';

/** The token of a reset link (`/forgot-password#reset=...`), if the page was opened from one. */
function resetTokenOf(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('reset') ?? undefined;
}

/**
 * "Forgot password": with email (the pool sends it) a form that mails a reset link, and the page
 * that link opens to choose the new password; without email the operator's contact.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const token = resetTokenOf(useLocation().hash);
  const help = useAccountHelp();
  return (
    <article className="container page prose">
      {token ? (
        <NewPasswordForm token={token} />
      ) : (
        <>
          <h1>{t('forgot.title')}</h1>
          {help.isPending ? <Spinner /> : null}
          {help.isError ? (
            <ErrorBanner message={errorMessage(help.error, t)} onRetry={() => void help.refetch()} />
          ) : null}
          {help.data?.email === true ? <ResetRequestForm /> : null}
          {help.data?.email === false ? <NoEmail /> : null}
        </>
      )}
      <p className="row">
        <Link to="/login" className="btn btn--ghost">
          {t('forgot.backToLogin')}
        </Link>
      </p>
    </article>
  );
}

function ResetRequestForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<ValidationKey | undefined>();
  const send = useMutation({
    mutationFn: (body: PasswordResetRequest) =>
      apiFetch<undefined>('/api/auth/password-reset', { method: 'POST', body }),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const problem = validateEmail(email);
    setError(problem);
    if (!problem) send.mutate({ email: email.trim() });
  };
  if (send.isSuccess)
    return (
      <p className="banner banner--success" role="status">
        {t('forgot.sent', { email: send.variables.email })}
      </p>
    );
  return (
    <form noValidate onSubmit={submit}>
      <p className="page__lead">{t('forgot.lead')}</p>
      {send.isError ? <ErrorBanner message={errorMessage(send.error, t)} /> : null}
      <TextField
        label={t('forgot.email')}
        type="email"
        autoComplete="email"
        ltr
        value={email}
        onChange={setEmail}
        error={error ? t(error) : undefined}
      />
      <button type="submit" className="btn btn--primary" disabled={send.isPending}>
        {send.isPending ? t('forgot.sending') : t('forgot.send')}
      </button>
    </form>
  );
}

function NoEmail() {
  const { t } = useTranslation();
  const raw: unknown = t('forgot.steps', { returnObjects: true });
  const steps = Array.isArray(raw) ? (raw as string[]) : [];
  return (
    <>
      <p className="page__lead">{t('forgot.noEmailLead')}</p>
      <OperatorContact className="banner banner--info" />
      <h2>{t('forgot.stepsTitle')}</h2>
      <ol>
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p>{t('forgot.note')}</p>
      <p className="row">
        <Link to="/support" className="btn btn--primary">
          {t('forgot.contact')}
        </Link>
      </p>
    </>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'next' | 'confirm', ValidationKey>>>({});
  const save = useMutation({
    mutationFn: (body: PasswordResetConfirm) =>
      apiFetch<undefined>('/api/auth/password-reset/confirm', { method: 'POST', body }),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!next) found.next = 'validation.passwordRequired';
    else if (next.length < PASSWORD_MIN) found.next = 'validation.passwordMin';
    if (confirm !== next) found.confirm = 'validation.passwordsMismatch';
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate({ token, newPassword: next });
  };
  const linkUsed = save.error instanceof ApiError && save.error.code === 'reset-link-invalid';
  const serverField = save.error instanceof ApiError ? save.error.fields.newPassword : undefined;
  return (
    <>
      <h1>{t('forgot.newTitle')}</h1>
      {save.isSuccess ? (
        <>
          <p className="banner banner--success" role="status">
            {t('forgot.done')}
          </p>
          <p className="row">
            <Link to="/login" className="btn btn--primary">
              {t('forgot.goToLogin')}
            </Link>
          </p>
        </>
      ) : (
        <form noValidate onSubmit={submit}>
          <p className="page__lead">{t('forgot.newLead')}</p>
          {save.isError && !serverField ? <ErrorBanner message={errorMessage(save.error, t)} /> : null}
          {linkUsed ? (
            <p>
              <Link to="/forgot-password">{t('forgot.askAgain')}</Link>
            </p>
          ) : null}
          <TextField
            label={t('forgot.newPassword')}
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={setNext}
            error={errors.next ? t(errors.next) : serverField}
          />
          <TextField
            label={t('forgot.confirmPassword')}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm ? t(errors.confirm) : undefined}
          />
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? t('forgot.saving') : t('forgot.setPassword')}
          </button>
        </form>
      )}
    </>
  );
}
