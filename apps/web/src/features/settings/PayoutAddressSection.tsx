import { DEFAULT_POOL_COIN } from '@manjam/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { Select } from '../../components/Select';
import { CodeField, TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import { COINS, type Coin, type PayoutAddressRequest, type Settings } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { queryKeys, useMe, usePoolNetworks } from '../../lib/queries';
import {
  addressKindsKey,
  addressStartsText,
  validateWalletAddress,
  type ValidationKey,
} from '../../lib/validation';
import { lacksPayoutAddress } from './PayoutAddressPrompt';

/** How the pool's addresses of the coin start, and for Monero which lengths its kinds have. */
function addressHint(coin: Coin, starts: string | undefined, t: TFunction): string | undefined {
  const kinds = addressKindsKey(coin);
  const parts = [starts ? t('validation.addressStarts', { coin, starts }) : '', kinds ? t(kinds) : ''];
  return parts.filter(Boolean).join(' ') || undefined;
}

/** Default Payout Address with Edit: PUT /api/settings/payout-address (password, and the 2FA code when on); shows the pending address and its date. */
export function PayoutAddressSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const networks = usePoolNetworks();
  const twoFactor = settings.twoFactorAuth;
  const missing = lacksPayoutAddress(settings);
  const [editing, setEditing] = useState(false);
  const [address, setAddress] = useState('');
  const [coin, setCoin] = useState<Coin>(me.data?.preferredCoin ?? DEFAULT_POOL_COIN);
  const starts = addressStartsText(coin, networks);
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [error, setError] = useState<
    | ValidationKey
    | 'validation.addressRequired'
    | 'validation.codeInvalid'
    | 'validation.passwordRequired'
    | undefined
  >();
  const mutation = useMutation({
    mutationFn: (body: PayoutAddressRequest) =>
      apiFetch<Settings>('/api/settings/payout-address', { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings, saved);
      setEditing(false);
      setAddress('');
      setPassword('');
      setTotp('');
    },
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = !address.trim()
      ? 'validation.addressRequired'
      : (validateWalletAddress(address, coin, networks) ??
        (!password
          ? 'validation.passwordRequired'
          : twoFactor && !/^\d{6}$/.test(totp.trim())
            ? 'validation.codeInvalid'
            : undefined));
    setError(found);
    if (!found)
      mutation.mutate({
        address: address.trim(),
        coin,
        password,
        ...(twoFactor ? { totp: totp.trim() } : {}),
      });
  };
  const serverFields = mutation.error instanceof ApiError ? mutation.error.fields : {};
  return (
    <div className="settings-block">
      <h3>{t('settings.wallet.payoutAddress')}</h3>
      {missing && !editing ? (
        <p className="banner banner--warning" role="status">
          {t('settings.wallet.missing')}
        </p>
      ) : null}
      <div className="row">
        {settings.payoutAddress ? (
          <Ltr>{settings.payoutAddress}</Ltr>
        ) : (
          <span className="muted">{t('settings.wallet.notSet')}</span>
        )}
        {!editing ? (
          <button
            type="button"
            className={missing ? 'btn btn--primary btn--sm' : 'btn btn--ghost btn--sm'}
            onClick={() => {
              mutation.reset();
              setEditing(true);
            }}
          >
            {missing ? t('settings.wallet.set') : t('settings.wallet.edit')}
          </button>
        ) : null}
      </div>
      {settings.pendingPayoutAddress ? (
        <p className="banner banner--info">
          {t('settings.wallet.pending', {
            address: settings.pendingPayoutAddress,
            date: settings.pendingPayoutAddressEffectiveAt
              ? formatDateTime(settings.pendingPayoutAddressEffectiveAt)
              : '—',
          })}
        </p>
      ) : null}
      {mutation.isSuccess ? (
        <p className="banner banner--success" role="status">
          {t('settings.wallet.saved')}
        </p>
      ) : null}
      {editing ? (
        <form noValidate onSubmit={submit} className="card settings-form">
          {mutation.isError && Object.keys(serverFields).length === 0 ? (
            <ErrorBanner message={errorMessage(mutation.error, t)} />
          ) : null}
          <Select<Coin>
            label={t('settings.wallet.coin')}
            value={coin}
            options={COINS.map((c) => ({ value: c, label: t(`coins.${c}`) }))}
            onChange={setCoin}
          />
          <TextField
            label={t('settings.wallet.newAddress')}
            hint={addressHint(coin, starts, t)}
            ltr
            spellCheck={false}
            autoComplete="off"
            value={address}
            onChange={setAddress}
            error={
              error && error !== 'validation.codeInvalid' && error !== 'validation.passwordRequired'
                ? t(error)
                : serverFields.address
            }
          />
          <TextField
            label={t('settings.wallet.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={error === 'validation.passwordRequired' ? t(error) : serverFields.password}
          />
          {twoFactor ? (
            <CodeField
              label={t('settings.wallet.totp')}
              value={totp}
              onChange={setTotp}
              error={error === 'validation.codeInvalid' ? t(error) : serverFields.totp}
            />
          ) : null}
          <div className="row">
            <button type="submit" className="btn btn--primary" disabled={mutation.isPending}>
              {t('settings.wallet.submit')}
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setEditing(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
