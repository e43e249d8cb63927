// Changes ONE coin's payout threshold: typed in the coin's unit ("0.05"), sent as base units to
// PUT /api/settings/payout-threshold, checked against the range the server gives for that coin.
import { baseUnitsToDecimal, decimalsOf, parseCoinAmount } from '@manjam/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { TextField } from '../../components/TextField';
import { ApiError, apiFetch } from '../../lib/api';
import type { PayoutSetting, PayoutThresholdRequest, Settings } from '../../lib/api-types';
import { errorMessage } from '../../lib/errors';
import { formatCoin } from '../../lib/format';
import { normalizeNumber } from '../../lib/numbers';
import { queryKeys } from '../../lib/queries';
import { isolate } from './isolate';

/** Base units of the typed amount when it is one within the coin's range, else null. */
export function thresholdUnits(text: string, payout: PayoutSetting): bigint | null {
  let units: bigint;
  try {
    units = parseCoinAmount(normalizeNumber(text), decimalsOf(payout.coin));
  } catch {
    return null;
  }
  return units >= BigInt(payout.minimumThreshold) && units <= BigInt(payout.maximumThreshold) ? units : null;
}

export function PayoutThresholdForm({ payout }: { payout: PayoutSetting }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { coin } = payout;
  const current = baseUnitsToDecimal(BigInt(payout.threshold), decimalsOf(coin), 0);
  const [value, setValue] = useState(current);
  const [invalid, setInvalid] = useState(false);
  const mutation = useMutation({
    mutationFn: (body: PayoutThresholdRequest) =>
      apiFetch<Settings>('/api/settings/payout-threshold', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.settings, saved),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const units = thresholdUnits(value, payout);
    setInvalid(units === null);
    if (units !== null) mutation.mutate({ coin, threshold: units.toString() });
  };
  const serverFields = mutation.error instanceof ApiError ? mutation.error.fields : {};
  return (
    <form noValidate onSubmit={submit} className="payout-coin__threshold-form">
      <TextField
        label={t('settings.wallet.thresholdFor', { coin: isolate(coin) })}
        inputMode="decimal"
        ltr
        autoComplete="off"
        value={value}
        onChange={(next) => {
          setValue(next);
          mutation.reset();
        }}
        error={invalid ? t('settings.wallet.thresholdInvalid') : serverFields.threshold}
      />
      <p className="field__hint">
        {t('settings.wallet.thresholdRange')}{' '}
        <Ltr mono={false}>
          {formatCoin(payout.minimumThreshold, coin)} – {formatCoin(payout.maximumThreshold, coin)}
        </Ltr>
      </p>
      {mutation.isError && Object.keys(serverFields).length === 0 ? (
        <ErrorBanner message={errorMessage(mutation.error, t)} />
      ) : null}
      {mutation.isSuccess ? (
        <p className="banner banner--success" role="status">
          {t('settings.wallet.thresholdSaved')}
        </p>
      ) : null}
      <button
        type="submit"
        className="btn btn--ghost btn--sm"
        disabled={mutation.isPending || value === current}
      >
        {t('settings.wallet.thresholdSave')}
      </button>
    </form>
  );
}
