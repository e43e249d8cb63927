// Changes ONE coin's payout address: PUT /api/settings/payout-address {coin, address, password,
// totp when 2FA is on}. The coin's first address takes effect at once, a change after the hold.
import { addressKindsKey } from '../../coins/registry';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CodeField, TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import type { Coin, PayoutAddressRequest, PayoutSetting, Settings } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { queryKeys, usePoolNetworks } from '../../lib/queries';
import { addressStartsText, validateWalletAddress, type ValidationKey } from '../../lib/validation';
import { isolate } from './isolate';

/** How the pool's addresses of the coin start, and for Monero which lengths its kinds have. */
function addressHint(coin: Coin, starts: string | undefined, t: TFunction): string | undefined {
  const kinds = addressKindsKey(coin);
  const parts = [
    starts ? t('validation.addressStarts', { coin: isolate(coin), starts: isolate(starts) }) : '',
    kinds ? t(kinds) : '',
  ];
  return parts.filter(Boolean).join(' ') || undefined;
}

type FormError =
  ValidationKey | 'validation.addressRequired' | 'validation.codeInvalid' | 'validation.passwordRequired';

export function PayoutAddressForm({
  coin,
  twoFactor,
  onDone,
}: {
  coin: PayoutSetting['coin'];
  twoFactor: boolean;
  /** Called with true once saved, false when cancelled. */
  onDone: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const networks = usePoolNetworks();
  const [address, setAddress] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [error, setError] = useState<FormError | undefined>();
  const mutation = useMutation({
    mutationFn: (body: PayoutAddressRequest) =>
      apiFetch<Settings>('/api/settings/payout-address', { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings, saved);
      onDone(true);
    },
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found: FormError | undefined = !address.trim()
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
    <form noValidate onSubmit={submit} className="settings-form payout-coin__form">
      {mutation.isError && Object.keys(serverFields).length === 0 ? (
        <ErrorBanner message={errorMessage(mutation.error, t)} />
      ) : null}
      <TextField
        label={t('settings.wallet.newAddressFor', { coin: isolate(coin) })}
        hint={addressHint(coin, addressStartsText(coin, networks), t)}
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
        <button type="button" className="btn btn--ghost" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
