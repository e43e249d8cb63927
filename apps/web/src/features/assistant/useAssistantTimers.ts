import { useEffect, useRef, useState } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';

/** Seed timings: first-visit auto-open at 3 s, hint bubble at 5 s, hint action sends after 0.5 s. */
export const AUTO_OPEN_MS = 3000;
export const HINT_MS = 5000;
export const HINT_SEND_MS = 500;

export interface AssistantTimers {
  open: boolean;
  hintVisible: boolean;
  setOpen: (open: boolean) => void;
  /** Opens the chat from the hint and calls `send` half a second later. */
  startFromHint: (send: () => void) => void;
  /** Hides the hint bubble (its own close button). */
  dismissHint: () => void;
}

export function useAssistantTimers(): AssistantTimers {
  const [open, setOpenState] = useState(false);
  const [hintDue, setHintDue] = useState(false);
  const [hintDismissed, setHintDismissed] = useState(false);
  const sendTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    if (readStorage(STORAGE_KEYS.hasVisitedBefore) === null) {
      timers.push(
        setTimeout(() => {
          setOpenState(true);
          writeStorage(STORAGE_KEYS.hasVisitedBefore, 'true');
        }, AUTO_OPEN_MS),
      );
    }
    // The hint is offered once per browser, not on every page load: once shown it is remembered.
    if (readStorage(STORAGE_KEYS.assistantHintSeen) === null)
      timers.push(
        setTimeout(() => {
          setHintDue(true);
          writeStorage(STORAGE_KEYS.assistantHintSeen, 'true');
        }, HINT_MS),
      );
    return () => {
      timers.forEach(clearTimeout);
      clearTimeout(sendTimer.current);
    };
  }, []);

  const setOpen = (next: boolean): void => {
    setHintDismissed(true);
    setOpenState(next);
  };

  const startFromHint = (send: () => void): void => {
    setOpen(true);
    clearTimeout(sendTimer.current);
    sendTimer.current = setTimeout(send, HINT_SEND_MS);
  };

  return {
    open,
    hintVisible: hintDue && !hintDismissed && !open,
    setOpen,
    startFromHint,
    dismissHint: () => setHintDismissed(true),
  };
}
