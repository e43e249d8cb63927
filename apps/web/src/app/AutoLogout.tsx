import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { rememberSignOutReason, useAuth } from '../lib/auth';
import { useSettings } from '../lib/queries';
import { logout } from '../features/session/logout';

/** Settings → Security → Auto Logout: "after 30 minutes of inactivity". */
export const AUTO_LOGOUT_MS = 30 * 60 * 1000;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Signs the user out after 30 minutes without input when their Auto Logout setting is on, and says so on /login. */
export function AutoLogout() {
  const { isSignedIn } = useAuth();
  const settings = useSettings();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const enabled = isSignedIn && settings.data?.autoLogout === true;

  useEffect(() => {
    if (!enabled) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expire = (): void => {
      void logout().then(() => {
        queryClient.clear();
        // Not a silent redirect: /login says the session ended after 30 minutes of inactivity.
        rememberSignOutReason('idle');
        void navigate('/login', { replace: true });
      });
    };
    const restart = (): void => {
      clearTimeout(timer);
      timer = setTimeout(expire, AUTO_LOGOUT_MS);
    };
    restart();
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, restart, { passive: true }));
    return () => {
      clearTimeout(timer);
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, restart));
    };
  }, [enabled, navigate, queryClient]);
  return null;
}
