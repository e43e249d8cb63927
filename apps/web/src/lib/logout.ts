import { apiFetch } from './api';
import { getAuthSnapshot, signOut } from './auth';

/** Ends the server session (POST /api/auth/logout) and removes token and user from this browser. */
export async function logout(): Promise<void> {
  if (getAuthSnapshot().token) {
    try {
      await apiFetch<undefined>('/api/auth/logout', { method: 'POST' });
    } catch {
      // The session is dropped on this device either way; the server expires it on its own.
    }
  }
  signOut();
}
