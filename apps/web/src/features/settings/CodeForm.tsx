import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeField, TextField } from '../../components/TextField';
import type { TotpCodeRequest } from '../../lib/api-types';

const CODE_PATTERN = /^\d{6}$/;

/** The account password and a 6-digit code: turning 2FA on or off (or new recovery codes) needs both. */
export function CodeForm({
  submitLabel,
  onSubmit,
  pending,
  onCancel,
  serverFields,
}: {
  submitLabel: string;
  onSubmit: (body: TotpCodeRequest) => void;
  pending: boolean;
  onCancel: () => void;
  serverFields: Record<string, string>;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<{ password?: boolean; code?: boolean }>({});
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const trimmed = code.trim();
    const found = { password: !password, code: !CODE_PATTERN.test(trimmed) };
    setInvalid(found);
    if (!found.password && !found.code) onSubmit({ password, code: trimmed });
  };
  return (
    <form noValidate onSubmit={submit} className="inline-form">
      <TextField
        label={t('settings.tfa.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={invalid.password ? t('validation.passwordRequired') : serverFields.password}
      />
      <CodeField
        label={t('settings.tfa.code')}
        value={code}
        onChange={setCode}
        error={invalid.code ? t('validation.codeInvalid') : serverFields.code}
      />
      <div className="row">
        <button type="submit" className="btn btn--primary" disabled={pending}>
          {submitLabel}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          {t('settings.tfa.cancel')}
        </button>
      </div>
    </form>
  );
}
