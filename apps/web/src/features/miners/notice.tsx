// Non-blocking replacement for the seed's alert(): a polite live region that shows the exact
// message and clears itself after a few seconds (or on Dismiss).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type NoticeTone = 'success' | 'error' | 'info';

export interface Notice {
  id: number;
  message: string;
  tone: NoticeTone;
}

export const NOTICE_MS = 5000;

export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const counter = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  const dismiss = useCallback(() => {
    clearTimeout(timer.current);
    setNotice(null);
  }, []);
  const show = useCallback((message: string, tone: NoticeTone = 'success') => {
    counter.current += 1;
    setNotice({ id: counter.current, message, tone });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setNotice(null), NOTICE_MS);
  }, []);
  return { notice, show, dismiss };
}

export type NoticeApi = ReturnType<typeof useNotice>;

/** Always rendered so screen readers hear each new message. */
export function NoticeRegion({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice-region" role="status" aria-live="polite" aria-atomic="true">
      {notice ? (
        <div key={notice.id} className={`notice notice--${notice.tone}`}>
          <span>{notice.message}</span>
          <button type="button" className="icon-btn" onClick={onDismiss} aria-label={t('miners.dismiss')}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
