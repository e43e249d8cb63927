import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../lib/queries';
import { unreadCount, useNotifications } from './api';
import { NotificationPanel } from './NotificationPanel';
import './notifications.css';

function BellIcon() {
  return (
    <svg
      className="icon"
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" />
    </svg>
  );
}

/** Closes on Escape (focus back to the bell) and on a click outside the bell and its panel. */
function useDismiss(
  open: boolean,
  close: (refocus: boolean) => void,
  root: React.RefObject<HTMLDivElement | null>,
): void {
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') close(true);
    };
    const onPointer = (event: PointerEvent): void => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, root]);
}

/**
 * The top bar's bell: unread count (hidden when the user turned notifications off in Settings;
 * the list stays reachable) and a popover with the latest notifications.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();
  const list = useNotifications();
  const settings = useSettings();
  const showCount = settings.data?.notifications !== false;
  const count = showCount ? unreadCount(list.data) : 0;

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);
  useDismiss(open, close, rootRef);
  useEffect(() => {
    if (open) panelRef.current?.focus();
  }, [open]);

  const toggle = (): void => {
    if (!open) void list.refetch();
    setOpen((current) => !current);
  };
  const label = count > 0 ? t('notifications.bellUnread', { count }) : t('notifications.bell');
  return (
    <div
      className="notif"
      ref={rootRef}
      onBlur={(event) => {
        // Tabbing out of the bell and its panel closes the panel.
        if (open && !(event.relatedTarget instanceof Node && rootRef.current?.contains(event.relatedTarget)))
          close(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn notif__bell"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        onClick={toggle}
      >
        <BellIcon />
        {count > 0 ? (
          <span className="notif__count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </button>
      {open ? <NotificationPanel ref={panelRef} id={panelId} titleId={titleId} /> : null}
    </div>
  );
}
