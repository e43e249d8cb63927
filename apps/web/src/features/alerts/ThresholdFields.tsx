import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlertThresholdBounds, AlertThresholdsRequest } from '@manjam/contract';
import { TextField } from '../../components/TextField';
import { parseWholeNumber } from '../../lib/numbers';

/** The text of a threshold field: empty means "inherit" (null). */
export const fieldText = (value: number | null): string => (value === null ? '' : String(value));

/** Empty -> null; a whole number within [min, max] -> the number; else undefined (not valid). */
export function parseThreshold(text: string, min: number, max: number): number | null | undefined {
  if (text.trim() === '') return null;
  const value = parseWholeNumber(text);
  if (value === null) return undefined;
  return value >= min && value <= max ? value : undefined;
}

interface Props {
  bounds: AlertThresholdBounds;
  initial: AlertThresholdsRequest;
  /** What an empty field falls back to, shown as its placeholder. */
  inherited: { offlineMinutes: number; dropPercent: number };
  pending: boolean;
  serverFields: Record<string, string>;
  onSubmit: (values: AlertThresholdsRequest) => void;
  submitLabel: string;
}

/** Offline minutes and hashrate-drop percent, each within the pool's range, empty to inherit. */
export function ThresholdFields({
  bounds,
  initial,
  inherited,
  pending,
  serverFields,
  onSubmit,
  submitLabel,
}: Props) {
  const { t } = useTranslation();
  const [offline, setOffline] = useState(fieldText(initial.offlineMinutes));
  const [drop, setDrop] = useState(fieldText(initial.dropPercent));
  const [invalid, setInvalid] = useState({ offline: false, drop: false });
  const range = (min: number, max: number) => t('alertSettings.range', { min, max });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const offlineMinutes = parseThreshold(offline, bounds.offlineMinutesMin, bounds.offlineMinutesMax);
    const dropPercent = parseThreshold(drop, bounds.dropPercentMin, bounds.dropPercentMax);
    setInvalid({ offline: offlineMinutes === undefined, drop: dropPercent === undefined });
    if (offlineMinutes !== undefined && dropPercent !== undefined) onSubmit({ offlineMinutes, dropPercent });
  };
  return (
    <form noValidate onSubmit={submit} className="inline-form">
      <TextField
        label={t('alertSettings.offlineMinutes')}
        inputMode="numeric"
        ltr
        value={offline}
        onChange={setOffline}
        placeholder={String(inherited.offlineMinutes)}
        hint={range(bounds.offlineMinutesMin, bounds.offlineMinutesMax)}
        error={invalid.offline ? t('alertSettings.outOfRange') : serverFields.offlineMinutes}
      />
      <TextField
        label={t('alertSettings.dropPercent')}
        inputMode="numeric"
        ltr
        value={drop}
        onChange={setDrop}
        placeholder={String(inherited.dropPercent)}
        hint={range(bounds.dropPercentMin, bounds.dropPercentMax)}
        error={invalid.drop ? t('alertSettings.outOfRange') : serverFields.dropPercent}
      />
      <button type="submit" className="btn btn--primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
