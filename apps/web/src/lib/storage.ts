// The browser storage keys the product uses. Nothing else is stored.
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  language: 'language',
  sidebarOpen: 'sidebarOpen',
  hasVisitedBefore: 'hasVisitedBefore',
  /** The Mining Help hint bubble has been shown once in this browser: later page loads skip it. */
  assistantHintSeen: 'assistantHintSeen',
  /** The browser's time zone as last reported to the account (for times written without a browser). */
  reportedTimeZone: 'reportedTimeZone',
  /** The time zone chosen in Settings (lib/format.ts). */
  timeZone: 'timeZone',
  /** Why the last session ended when the server ended it ('idle': Auto Logout); read once by /login. */
  signOutReason: 'signOutReason',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Fired on window when this tab changes the auth keys (the `storage` event only reaches other tabs). */
export const AUTH_CHANGE_EVENT = 'manjam:auth-change';

export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the app keeps working in memory.
  }
}
