import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { TextField } from '../../components/TextField';
import { Toggle } from '../../components/Toggle';
import { apiFetch } from '../../lib/api';
import type { TwoFactorSetupResponse } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { queryKeys } from '../../lib/queries';

const CODE_PATTERN = /^\d{6}$/;

function CodeForm({ submitLabel, onSubmit, pending, onCancel }: { submitLabel: string; onSubmit: (code: string) => void; pending: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const trimmed = code.trim();
    setInvalid(!CODE_PATTERN.test(trimmed));
    if (CODE_PATTERN.test(trimmed)) onSubmit(trimmed);
  };
  return (
    <form noValidate onSubmit={submit} className="inline-form">
      <TextField label={t('settings.tfa.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} ltr value={code} onChange={setCode} error={invalid ? t('validation.codeInvalid') : undefined} />
      <div className="row">
        <button type="submit" className="btn btn--primary" disabled={pending}>{submitLabel}</button>
        <button type="button" className="btn btn--ghost" onClick={onCancel}>{t('settings.tfa.cancel')}</button>
      </div>
    </form>
  );
}

/** TOTP enrolment: POST /api/auth/2fa/setup shows a QR code, a 6-digit code confirms it. */
export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'enrol' | 'disable'>('idle');
  const [notice, setNotice] = useState('');
  const refresh = async (): Promise<void> => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.settings }), queryClient.invalidateQueries({ queryKey: queryKeys.me })]);
  };
  const setup = useMutation({ mutationFn: () => apiFetch<TwoFactorSetupResponse>('/api/auth/2fa/setup', { method: 'POST' }) });
  const enable = useMutation({
    mutationFn: (code: string) => apiFetch<undefined>('/api/auth/2fa/enable', { method: 'POST', body: { code } }),
    onSuccess: async () => { setMode('idle'); setNotice(t('settings.tfa.enabled')); await refresh(); },
  });
  const disable = useMutation({
    mutationFn: (code: string) => apiFetch<undefined>('/api/auth/2fa/disable', { method: 'POST', body: { code } }),
    onSuccess: async () => { setMode('idle'); setNotice(t('settings.tfa.disabled')); await refresh(); },
  });

  const onToggle = (next: boolean): void => {
    setNotice('');
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
  return (
    <div>
      <Toggle label={t('settings.twoFactor')} description={enabled ? t('settings.twoFactorOn') : t('settings.twoFactorOff')} checked={mode === 'enrol' || (enabled && mode !== 'disable')} onChange={onToggle} />
      {notice ? <p className="banner banner--success" role="status">{notice}</p> : null}
      {failure ? <ErrorBanner message={errorMessage(failure, t)} /> : null}
      {mode === 'enrol' && setup.data ? (
        <div className="tfa card">
          <h3>{t('settings.tfa.setup')}</h3>
          <p>{t('settings.tfa.scan')}</p>
          <img src={setup.data.qrDataUrl} alt={t('settings.tfa.qrAlt')} width={200} height={200} className="tfa__qr" />
          <p>{t('settings.tfa.secret')}: <Ltr>{setup.data.secret}</Ltr></p>
          <CodeForm submitLabel={t('settings.tfa.enable')} pending={enable.isPending} onSubmit={(code) => enable.mutate(code)} onCancel={() => setMode('idle')} />
        </div>
      ) : null}
      {mode === 'disable' ? (
        <div className="tfa card">
          <p>{t('settings.tfa.disableHint')}</p>
          <CodeForm submitLabel={t('settings.tfa.disable')} pending={disable.isPending} onSubmit={(code) => disable.mutate(code)} onCancel={() => setMode('idle')} />
        </div>
      ) : null}
    </div>
  );
}
