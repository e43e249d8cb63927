import { disablePush } from '../notifications/push';
import { apiFetch } from '../../lib/api';
import { getAuthSnapshot, signOut } from '../../lib/auth';

/**
 * Ends the server session (POST /api/auth/logout) and removes token and user from this browser.
 * This browser's push subscription is removed first, so the next person here gets no alerts.
 */
export async function logout(): Promise<void> {
  if (getAuthSnapshot().token) {
    await disablePush();
    try {
      await apiFetch<undefined>('/api/auth/logout', { method: 'POST' });
    } catch {
      // The session is dropped on this device either way; the server expires it on its own.
    }
  }
  signOut();
}
