import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { Toggle } from '../../components/Toggle';
import { ApiError, apiFetch } from '../../lib/api';
import type { RecoveryCodes } from '@manjam/contract';
import { CodeForm } from './CodeForm';
import type { Settings, TotpCodeRequest, TwoFactorSetupResponse } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { queryKeys } from '../../lib/queries';
import { RecoveryCodeList, RecoveryCodesPanel, recoveryCodesKey } from './RecoveryCodes';

/** TOTP enrolment: POST /api/auth/2fa/setup shows a QR code, the password and a 6-digit code confirm it; turning it off asks for both too. */
export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'enrol' | 'disable'>('idle');
  const [notice, setNotice] = useState('');
  /** The recovery codes of the enrolment just made: shown once, until the page is left. */
  const [freshCodes, setFreshCodes] = useState<string[]>([]);
  /** Shows the state the server just answered at once, then re-reads everything that depends on it. */
  const refresh = async (on: boolean): Promise<void> => {
    queryClient.setQueryData<Settings>(queryKeys.settings, (old) => old && { ...old, twoFactorAuth: on });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.settings }),
      queryClient.invalidateQueries({ queryKey: queryKeys.me }),
      queryClient.invalidateQueries({ queryKey: recoveryCodesKey }),
    ]);
  };
  const setup = useMutation({
    mutationFn: () => apiFetch<TwoFactorSetupResponse>('/api/auth/2fa/setup', { method: 'POST' }),
  });
  const enable = useMutation({
    mutationFn: (body: TotpCodeRequest) =>
      apiFetch<RecoveryCodes>('/api/auth/2fa/enable', { method: 'POST', body }),
    onSuccess: async (result) => {
      setMode('idle');
      setNotice(t('settings.tfa.enabled'));
      setFreshCodes(result.codes);
      await refresh(true);
    },
  });
  const disable = useMutation({
    mutationFn: (body: TotpCodeRequest) =>
      apiFetch<undefined>('/api/auth/2fa/disable', { method: 'POST', body }),
    onSuccess: async () => {
      setMode('idle');
      setNotice(t('settings.tfa.disabled'));
      await refresh(false);
    },
  });

  const onToggle = (next: boolean): void => {
    setNotice('');
    setFreshCodes([]);
    enable.reset();
    disable.reset();
    if (next && !enabled) {
      setMode('enrol');
      setup.mutate();
    } else if (!next && enabled) {
      setMode('disable');
    } else {
      setMode('idle');
    }
  };
  const failure = setup.error ?? enable.error ?? disable.error;
  const serverFields = failure instanceof ApiError ? failure.fields : {};
  return (
    <div>
      <Toggle
        label={t('settings.twoFactor')}
        description={enabled ? t('settings.twoFactorOn') : t('settings.twoFactorOff')}
        checked={mode === 'enrol' || (enabled && mode !== 'disable')}
        onChange={onToggle}
      />
      {notice ? (
        <p className="banner banner--success" role="status">
          {notice}
        </p>
      ) : null}
      {failure && Object.keys(serverFields).length === 0 ? (
        <ErrorBanner message={errorMessage(failure, t)} />
      ) : null}
      {mode === 'enrol' && setup.data ? (
        <div className="tfa card">
          <h3>{t('settings.tfa.setup')}</h3>
          <p>{t('settings.tfa.scan')}</p>
          <img
            src={setup.data.qrDataUrl}
            alt={t('settings.tfa.qrAlt')}
            width={200}
            height={200}
            className="tfa__qr"
          />
          <p>
            {t('settings.tfa.secret')}: <Ltr className="tfa__secret">{setup.data.secret}</Ltr>
          </p>
          <p>{t('settings.tfa.enableHint')}</p>
          <CodeForm
            submitLabel={t('settings.tfa.enable')}
            pending={enable.isPending}
            onSubmit={(body) => enable.mutate(body)}
            onCancel={() => setMode('idle')}
            serverFields={serverFields}
          />
        </div>
      ) : null}
      {freshCodes.length > 0 ? <RecoveryCodeList codes={freshCodes} /> : null}
      {enabled && mode === 'idle' && freshCodes.length === 0 ? <RecoveryCodesPanel /> : null}
      {mode === 'disable' ? (
        <div className="tfa card">
          <p>{t('settings.tfa.disableHint')}</p>
          <CodeForm
            submitLabel={t('settings.tfa.disable')}
            pending={disable.isPending}
            onSubmit={(body) => disable.mutate(body)}
            onCancel={() => setMode('idle')}
            serverFields={serverFields}
          />
        </div>
      ) : null}
    </div>
  );
}
