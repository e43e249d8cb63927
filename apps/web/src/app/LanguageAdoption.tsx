import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { syncPush } from '../features/notifications/push';
import { pageReload, storedLanguage } from '../i18n';
import { apiFetch } from '../lib/api';
import { browserTimeZone, setTimeZone } from '../lib/format';
import type { Language, Settings } from '../lib/api-types';
import { useAuth } from '../lib/auth';
import { queryKeys } from '../lib/queries';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';

/** One adoption per page load: a second mismatch in the same load never reloads again. */
let adoptedThisLoad = false;

/** For tests: forget that this page load already adopted a language. */
export function resetLanguageAdoption(): void {
  adoptedThisLoad = false;
}

/**
 * Makes the browser use the account's saved language: stores it and reloads once. It reloads only
 * when the stored value really changed, so a browser that cannot store it never loops.
 */
export function adoptLanguage(saved: Language): boolean {
  if (adoptedThisLoad || saved === storedLanguage()) return false;
  writeStorage(STORAGE_KEYS.language, saved);
  if (readStorage(STORAGE_KEYS.language) !== saved) return false;
  adoptedThisLoad = true;
  pageReload.reload();
  return true;
}

/**
 * Shows every time in the account's chosen zone, and tells the account this browser's own zone
 * when it changed (notifications, the assistant and CSV files use it while none is chosen).
 */
function adoptTimeZone(settings: Settings): void {
  setTimeZone(settings.timeZone);
  const own = browserTimeZone();
  if (readStorage(STORAGE_KEYS.reportedTimeZone) === own) return;
  apiFetch<Settings>('/api/settings', { method: 'PUT', body: { browserTimeZone: own } })
    .then(() => writeStorage(STORAGE_KEYS.reportedTimeZone, own))
    .catch(() => undefined);
}

/**
 * After sign-in and on start while signed in: fetch fresh settings and adopt their language and
 * time zone.
 * When the account wants push and this browser granted permission before, the subscription is
 * saved again (never prompting): logging out removes it from the browser.
 */
export function LanguageAdoption() {
  const queryClient = useQueryClient();
  const { isSignedIn, token } = useAuth();
  useEffect(() => {
    if (!isSignedIn || !token) return;
    const load = queryClient.fetchQuery({
      queryKey: queryKeys.settings,
      queryFn: ({ signal }) => apiFetch<Settings>('/api/settings', { signal }),
      staleTime: 0,
    });
    load
      .then((settings) => {
        adoptTimeZone(settings);
        return !adoptLanguage(settings.language) && settings.notifications ? syncPush(true, false) : null;
      })
      .catch(() => undefined);
  }, [isSignedIn, token, queryClient]);
  return null;
}
