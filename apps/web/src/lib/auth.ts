import { useCallback, useSyncExternalStore } from 'react';
import type { User } from './api-types';
import { AUTH_CHANGE_EVENT, readStorage, STORAGE_KEYS, writeStorage } from './storage';

export interface AuthSnapshot {
  token: string | null;
  user: User | null;
  /** Signed in = a token AND a parsable user object are both in storage. */
  isSignedIn: boolean;
}

function isUser(value: unknown): value is User {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { username?: unknown }).username === 'string'
  );
}

export function parseStoredUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

let cachedKey = '';
let cachedSnapshot: AuthSnapshot = { token: null, user: null, isSignedIn: false };

export function getAuthSnapshot(): AuthSnapshot {
  const token = readStorage(STORAGE_KEYS.token);
  const rawUser = readStorage(STORAGE_KEYS.user);
  const key = `${token ?? ''}\u0000${rawUser ?? ''}`;
  if (key !== cachedKey) {
    const user = parseStoredUser(rawUser);
    cachedKey = key;
    cachedSnapshot = { token, user, isSignedIn: Boolean(token) && user !== null };
  }
  return cachedSnapshot;
}

function notify(): void {
  window.dispatchEvent(new Event(AUTH_CHANGE_EVENT));
}

export function signIn(token: string, user: User): void {
  writeStorage(STORAGE_KEYS.signOutReason, null);
  writeStorage(STORAGE_KEYS.token, token);
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
  notify();
}

/** Replace the stored user (e.g. after GET /api/me) without touching the token. */
export function storeUser(user: User): void {
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
  notify();
}

/** Why the server ended a session, as the login page tells it: Auto Logout after inactivity. */
export type SignOutReason = 'idle';

export function signOut(reason?: SignOutReason): void {
  writeStorage(STORAGE_KEYS.signOutReason, reason ?? null);
  writeStorage(STORAGE_KEYS.token, null);
  writeStorage(STORAGE_KEYS.user, null);
  notify();
}

/** The reason the last session ended, if the server gave one (read by /login, cleared by clearSignOutReason). */
export function signOutReason(): SignOutReason | null {
  return readStorage(STORAGE_KEYS.signOutReason) === 'idle' ? 'idle' : null;
}

/** Notes why this tab signed the user out (the client's own Auto Logout timer), for /login to say. */
export function rememberSignOutReason(reason: SignOutReason): void {
  writeStorage(STORAGE_KEYS.signOutReason, reason);
}

export function clearSignOutReason(): void {
  writeStorage(STORAGE_KEYS.signOutReason, null);
}

export function subscribeAuth(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === STORAGE_KEYS.token || event.key === STORAGE_KEYS.user) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(AUTH_CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(AUTH_CHANGE_EVENT, onChange);
  };
}

export interface UseAuth extends AuthSnapshot {
  signIn: (token: string, user: User) => void;
  signOut: () => void;
}

/** The signed-in state, re-read whenever storage changes in this tab or another one. */
export function useAuth(): UseAuth {
  const snapshot = useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
  const doSignIn = useCallback((token: string, user: User) => signIn(token, user), []);
  const doSignOut = useCallback(() => signOut(), []);
  return { ...snapshot, signIn: doSignIn, signOut: doSignOut };
}
