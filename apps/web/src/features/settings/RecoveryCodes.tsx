import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecoveryCodes, RecoveryCodesLeft, TotpCodeRequest } from '@manjam/contract';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { ApiError, apiFetch } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { CodeForm } from './CodeForm';

export const recoveryCodesKey = ['auth', 'recovery-codes'] as const;

/** Ten single-use codes, shown once (when 2FA is turned on, or after regenerating). */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="tfa card stack" role="region" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">{t('recoveryCodes.title')}</h3>
      <p>{t('recoveryCodes.saveThem')}</p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <Ltr>{code}</Ltr>
          </li>
        ))}
      </ol>
      <CopyButton text={codes.join('\n')} label={t('recoveryCodes.copy')} />
    </div>
  );
}

/** With 2FA on: how many recovery codes are left, and new ones for the password and a current code. */
export function RecoveryCodesPanel() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const left = useQuery({
    queryKey: recoveryCodesKey,
    queryFn: ({ signal }) => apiFetch<RecoveryCodesLeft>('/api/auth/2fa/recovery-codes', { signal }),
  });
  const regenerate = useMutation({
    mutationFn: (body: TotpCodeRequest) =>
      apiFetch<RecoveryCodes>('/api/auth/2fa/recovery-codes', { method: 'POST', body }),
    onSuccess: async () => {
      setAsking(false);
      await client.invalidateQueries({ queryKey: recoveryCodesKey });
    },
  });
  const fields = regenerate.error instanceof ApiError ? regenerate.error.fields : {};
  return (
    <div className="stack">
      {left.data ? (
        <p className={left.data.left <= 2 ? 'field__error' : 'muted'}>
          {t('recoveryCodes.left', { count: left.data.left })}
        </p>
      ) : null}
      {asking ? (
        <div className="tfa card">
          <p>{t('recoveryCodes.regenerateHint')}</p>
          <CodeForm
            submitLabel={t('recoveryCodes.regenerate')}
            pending={regenerate.isPending}
            onSubmit={(body) => regenerate.mutate(body)}
            onCancel={() => setAsking(false)}
            serverFields={fields}
          />
        </div>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => {
              regenerate.reset();
              setAsking(true);
            }}
          >
            {t('recoveryCodes.regenerate')}
          </button>
        </div>
      )}
      {regenerate.error && Object.keys(fields).length === 0 ? (
        <ErrorBanner message={errorMessage(regenerate.error, t)} />
      ) : null}
      {regenerate.data ? <RecoveryCodeList codes={regenerate.data.codes} /> : null}
    </div>
  );
}
