import { useId, type InputHTMLAttributes } from 'react';
import { normalizeNumber } from '../lib/numbers';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'onChange' | 'value'
> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown beneath the input and linked with aria-describedby. */
  error?: string;
  hint?: string;
  /** Left-to-right input (addresses, emails, codes) even in Arabic. */
  ltr?: boolean;
}

export function TextField({ label, value, onChange, error, hint, ltr, className, ...rest }: TextFieldProps) {
  const id = useId();
  const describedBy =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        {...rest}
        id={id}
        dir={ltr ? 'ltr' : undefined}
        className={`field__control${ltr ? ' field__control--ltr' : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A 6-digit authenticator (TOTP) code: numeric keypad, one-time-code autofill, left to right;
 * Arabic-Indic digits typed are kept as ASCII digits (lib/numbers.ts).
 */
export function CodeField(props: Omit<TextFieldProps, 'inputMode' | 'autoComplete' | 'maxLength' | 'ltr'>) {
  return (
    <TextField
      {...props}
      onChange={(value) => props.onChange(normalizeNumber(value))}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      ltr
    />
  );
}
