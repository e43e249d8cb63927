import { addressKindsKey } from '../../coins/registry';
import { DEFAULT_POOL_COIN } from '@manjam/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Select } from '../../components/Select';
import { TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import { usePoolNetworks } from '../../lib/queries';
import { COINS, type Coin, type RegisterRequest, type RegisterResponse } from '../../lib/api-types';
import {
  addressStartsText,
  hasErrors,
  validateRegistration,
  type RegistrationErrors,
  type RegistrationForm,
} from '../../lib/validation';
import '../auth.css';

export const REGISTER_REDIRECT_MS = 2000;

type Field = keyof RegistrationForm;
const EMPTY: RegistrationForm = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  walletAddress: '',
  preferredCoin: DEFAULT_POOL_COIN,
};

function toRequest(form: RegistrationForm): RegisterRequest {
  const wallet = form.walletAddress.trim();
  return {
    username: form.username.trim(),
    email: form.email.trim(),
    password: form.password,
    preferredCoin: form.preferredCoin,
    ...(wallet ? { walletAddress: wallet } : {}),
  };
}

/** The server's message for a failed registration; empty when there is none (network failure included). */
function bannerText(error: unknown): string {
  return error instanceof ApiError && !error.isNetworkError ? error.message : '';
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const networks = usePoolNetworks();
  const [form, setForm] = useState<RegistrationForm>(EMPTY);
  const [errors, setErrors] = useState<RegistrationErrors>({});
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState(false);
  /** The address a confirmation link went to (the pool sends email): the form gives way to "check your email". */
  const [checkEmail, setCheckEmail] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const starts = addressStartsText(form.preferredCoin, networks);
  const kinds = addressKindsKey(form.preferredCoin);
  const set = (field: Field) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const fieldError = (field: Field): string | undefined => {
    const key = errors[field];
    return key ? t(key) : serverFields[field];
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const found = validateRegistration(form, networks);
    setErrors(found);
    setServerFields({});
    setServerError('');
    if (hasErrors(found)) return;
    setSubmitting(true);
    try {
      const request = toRequest(form);
      // The same answer whether the email already has an account or not (the server mails the
      // owner instead), so this page cannot tell either, and says what the email will say.
      const result = await apiFetch<RegisterResponse>('/api/auth/register', {
        method: 'POST',
        body: request,
      });
      if (result.next === 'confirm-email') {
        setCheckEmail(request.email);
        return;
      }
      setSuccess(true);
      timer.current = setTimeout(() => void navigate('/login'), REGISTER_REDIRECT_MS);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : {};
      setServerFields(fields);
      setServerError(Object.keys(fields).length > 0 ? '' : bannerText(error) || t('register.failed'));
    } finally {
      setSubmitting(false);
    }
  };

  const coinOptions = COINS.map((coin) => ({ value: coin, label: t(`coins.${coin}`) }));
  if (checkEmail) return <CheckEmail email={checkEmail} />;
  return (
    <div className="auth-page container">
      <section className="auth-card card" aria-labelledby="register-title">
        <h1 id="register-title">{t('register.title')}</h1>
        <p className="muted">{t('register.subtitle')}</p>
        {success ? (
          <p className="banner banner--success" role="status">
            {t('register.success')}
          </p>
        ) : null}
        {serverError ? <ErrorBanner message={serverError} /> : null}
        <form noValidate onSubmit={(event) => void submit(event)}>
          <TextField
            label={t('register.username')}
            autoComplete="username"
            value={form.username}
            onChange={set('username')}
            error={fieldError('username')}
          />
          <TextField
            label={t('register.email')}
            type="email"
            autoComplete="email"
            ltr
            value={form.email}
            onChange={set('email')}
            error={fieldError('email')}
          />
          <TextField
            label={t('register.password')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
            error={fieldError('password')}
          />
          <TextField
            label={t('register.confirmPassword')}
            type="password"
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={set('confirmPassword')}
            error={fieldError('confirmPassword')}
          />
          <Select<Coin>
            label={t('register.preferredCoin')}
            value={form.preferredCoin}
            options={coinOptions}
            onChange={(coin) => setForm((current) => ({ ...current, preferredCoin: coin }))}
            error={serverFields.preferredCoin}
          />
          <TextField
            label={t('register.walletAddress')}
            hint={[
              t('register.walletHint'),
              starts ? t('validation.addressStarts', { coin: form.preferredCoin, starts }) : '',
              kinds ? t(kinds) : '',
            ]
              .filter(Boolean)
              .join(' ')}
            ltr
            spellCheck={false}
            autoComplete="off"
            value={form.walletAddress}
            onChange={set('walletAddress')}
            error={fieldError('walletAddress')}
          />
          <button type="submit" className="btn btn--primary btn--block" disabled={submitting || success}>
            {submitting ? t('register.submitting') : t('register.submit')}
          </button>
        </form>
        <p className="auth-card__links">
          <span>
            {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
          </span>
        </p>
      </section>
    </div>
  );
}

/** After a registration when the pool sends email: the next step is the link in the mail. */
function CheckEmail({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <div className="auth-page container">
      <section className="auth-card card" aria-labelledby="check-email-title">
        <h1 id="check-email-title">{t('register.checkEmailTitle')}</h1>
        <p className="banner banner--success" role="status">
          {t('register.checkEmail', { email })}
        </p>
        <p className="muted">{t('register.checkEmailSpam')}</p>
        <p className="auth-card__links">
          <Link to="/login">{t('register.loginLink')}</Link>
        </p>
      </section>
    </div>
  );
}
