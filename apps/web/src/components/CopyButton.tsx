import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CopyButtonProps {
  text: string;
  /** Visible button text; defaults to "Copy". */
  label?: string;
  /** Accessible name when the visible label is not enough, e.g. "Copy pool URL". */
  ariaLabel?: string;
  successMessage?: string;
  failureMessage?: string;
  className?: string;
}

async function writeClipboard(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('Clipboard unavailable');
  await navigator.clipboard.writeText(text);
}

/** Copies text to the clipboard and announces the seed's success or failure message. */
export function CopyButton({
  text,
  label,
  ariaLabel,
  successMessage,
  failureMessage,
  className,
}: CopyButtonProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'idle' | 'done' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (): Promise<void> => {
    try {
      await writeClipboard(text);
      setStatus('done');
    } catch {
      setStatus('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus('idle'), 4000);
  };

  const message =
    status === 'done'
      ? (successMessage ?? t('copy.success'))
      : status === 'failed'
        ? (failureMessage ?? t('copy.failure'))
        : '';
  return (
    <span className="copy">
      <button
        type="button"
        className={className ?? 'btn btn--ghost btn--sm'}
        aria-label={ariaLabel}
        onClick={() => void copy()}
      >
        {status === 'done' ? t('common.copied') : (label ?? t('common.copy'))}
      </button>
      <span
        className={`copy__status${status === 'failed' ? ' copy__status--error' : ''}`}
        role="status"
        aria-live="polite"
      >
        {message}
      </span>
    </span>
  );
}
