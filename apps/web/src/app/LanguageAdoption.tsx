import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { syncPush } from '../features/notifications/push';
import { pageReload, storedLanguage } from '../i18n';
import { apiFetch } from '../lib/api';
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
 * After sign-in and on start while signed in: fetch fresh settings and adopt their language.
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
      .then((settings) =>
        !adoptLanguage(settings.language) && settings.notifications ? syncPush(true, false) : null,
      )
      .catch(() => undefined);
  }, [isSignedIn, token, queryClient]);
  return null;
}
