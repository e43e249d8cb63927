// The password (and, with 2FA on, the authenticator code) that creating a read-only API token or a
// watcher link asks for: both hand out access to the account's figures, like a payout address.
import { useTranslation } from 'react-i18next';
import { CodeField, TextField } from '../../components/TextField';

export interface Confirmation {
  password: string;
  totp: string;
}

export type ConfirmProblem = 'validation.passwordRequired' | 'validation.codeInvalid';
/** What a create form checks before sending: its own fields, then the confirmation. */
export type FormProblem =
  ConfirmProblem | 'monitoring.nameRequired' | 'monitoring.coinsRequired' | 'monitoring.pagesRequired';

/** The first thing missing from a confirmation, if any. */
export function confirmProblem(value: Confirmation, twoFactor: boolean): ConfirmProblem | undefined {
  if (!value.password) return 'validation.passwordRequired';
  if (twoFactor && !/^\d{6}$/.test(value.totp.trim())) return 'validation.codeInvalid';
  return undefined;
}

/** The confirmation as the API takes it (`totp` only when 2FA is on). */
export const confirmBody = (value: Confirmation, twoFactor: boolean) => ({
  password: value.password,
  ...(twoFactor ? { totp: value.totp.trim() } : {}),
});

export function ConfirmFields({
  value,
  onChange,
  twoFactor,
  problem,
  serverFields,
}: {
  value: Confirmation;
  onChange: (value: Confirmation) => void;
  twoFactor: boolean;
  problem: FormProblem | undefined;
  serverFields: Record<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('settings.wallet.password')}
        type="password"
        autoComplete="current-password"
        value={value.password}
        onChange={(password) => onChange({ ...value, password })}
        error={problem === 'validation.passwordRequired' ? t(problem) : serverFields.password}
      />
      {twoFactor ? (
        <CodeField
          label={t('settings.wallet.totp')}
          value={value.totp}
          onChange={(totp) => onChange({ ...value, totp })}
          error={problem === 'validation.codeInvalid' ? t(problem) : serverFields.totp}
        />
      ) : null}
    </>
  );
}
