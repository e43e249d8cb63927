import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CodeField, TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import type { ChangeEmailRequest, ChangeEmailResponse, ChangePasswordRequest } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { queryKeys, useSettings } from '../../lib/queries';
import { PASSWORD_MIN, validateEmail, type ValidationKey } from '../../lib/validation';

function fieldsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fields : {};
}

const CODE_PATTERN = /^\d{6}$/;

/** While 2FA is on, sensitive changes also need a current code: its field, checked before sending. */
function useTotpField(): {
  on: boolean;
  value: string;
  set: (value: string) => void;
  invalid: () => boolean;
  body: () => { totp?: string };
  clear: () => void;
} {
  const on = useSettings().data?.twoFactorAuth ?? false;
  const [value, set] = useState('');
  return {
    on,
    value,
    set,
    invalid: () => on && !CODE_PATTERN.test(value.trim()),
    body: () => (on ? { totp: value.trim() } : {}),
    clear: () => set(''),
  };
}

/** Change Password: POST /api/auth/password {currentPassword, newPassword, totp when 2FA is on}. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const totp = useTotpField();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<
    Partial<Record<'current' | 'next' | 'confirm' | 'totp', ValidationKey | 'validation.codeInvalid'>>
  >({});
  const mutation = useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      apiFetch<undefined>('/api/auth/password', { method: 'POST', body }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
      totp.clear();
    },
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!current) found.current = 'validation.passwordRequired';
    if (!next) found.next = 'validation.passwordRequired';
    else if (next.length < PASSWORD_MIN) found.next = 'validation.passwordMin';
    if (confirm !== next) found.confirm = 'validation.passwordsMismatch';
    if (totp.invalid()) found.totp = 'validation.codeInvalid';
    setErrors(found);
    if (Object.keys(found).length === 0)
      mutation.mutate({ currentPassword: current, newPassword: next, ...totp.body() });
  };
  const server = fieldsOf(mutation.error);
  return (
    <form noValidate onSubmit={submit} className="card settings-form" aria-labelledby="change-password-title">
      <h3 id="change-password-title">{t('settings.password.title')}</h3>
      {mutation.isSuccess ? (
        <p className="banner banner--success" role="status">
          {t('settings.password.done')}
        </p>
      ) : null}
      {mutation.isError && Object.keys(server).length === 0 ? (
        <ErrorBanner message={errorMessage(mutation.error, t)} />
      ) : null}
      <TextField
        label={t('settings.password.current')}
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
        error={errors.current ? t(errors.current) : server.currentPassword}
      />
      <TextField
        label={t('settings.password.new')}
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
        error={errors.next ? t(errors.next) : server.newPassword}
      />
      <TextField
        label={t('settings.password.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
        error={errors.confirm ? t(errors.confirm) : undefined}
      />
      {totp.on ? (
        <CodeField
          label={t('settings.password.totp')}
          value={totp.value}
          onChange={totp.set}
          error={errors.totp ? t(errors.totp) : server.totp}
        />
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={mutation.isPending}>
        {t('settings.password.submit')}
      </button>
    </form>
  );
}

/**
 * Update Email: POST /api/auth/email {password, newEmail, totp when 2FA is on}. With email set up
 * the pool mails a link to the new address and the email changes when it is followed
 * (`next: 'confirm-email'`); without, it changes at once (`next: 'done'`).
 */
export function UpdateEmailForm() {
  const { t } = useTranslation();
  const totp = useTotpField();
  const queryClient = useQueryClient();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<
    Partial<Record<'newEmail' | 'password' | 'totp', ValidationKey | 'validation.codeInvalid'>>
  >({});
  const mutation = useMutation({
    mutationFn: (body: ChangeEmailRequest) =>
      apiFetch<ChangeEmailResponse>('/api/auth/email', { method: 'POST', body }),
    onSuccess: async () => {
      setPassword('');
      totp.clear();
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found: typeof errors = {};
    const emailError = validateEmail(newEmail);
    if (emailError) found.newEmail = emailError;
    if (!password) found.password = 'validation.passwordRequired';
    if (totp.invalid()) found.totp = 'validation.codeInvalid';
    setErrors(found);
    if (Object.keys(found).length === 0)
      mutation.mutate({ newEmail: newEmail.trim(), password, ...totp.body() });
  };
  const server = fieldsOf(mutation.error);
  return (
    <form noValidate onSubmit={submit} className="card settings-form" aria-labelledby="update-email-title">
      <h3 id="update-email-title">{t('settings.emailForm.title')}</h3>
      {mutation.isSuccess ? (
        <p className="banner banner--success" role="status">
          {mutation.data.next === 'confirm-email'
            ? t('settings.emailForm.sent', { email: mutation.variables.newEmail })
            : t('settings.emailForm.done')}
        </p>
      ) : null}
      {mutation.isError && Object.keys(server).length === 0 ? (
        <ErrorBanner message={errorMessage(mutation.error, t)} />
      ) : null}
      <TextField
        label={t('settings.emailForm.newEmail')}
        type="email"
        autoComplete="email"
        ltr
        value={newEmail}
        onChange={setNewEmail}
        error={errors.newEmail ? t(errors.newEmail) : server.newEmail}
      />
      <TextField
        label={t('settings.emailForm.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password ? t(errors.password) : server.password}
      />
      {totp.on ? (
        <CodeField
          label={t('settings.emailForm.totp')}
          value={totp.value}
          onChange={totp.set}
          error={errors.totp ? t(errors.totp) : server.totp}
        />
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={mutation.isPending}>
        {t('settings.emailForm.submit')}
      </button>
    </form>
  );
}
