import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { syncPush, type PushOutcome } from '../notifications/push';
import { switchLanguage } from '../../i18n';
import { apiFetch } from '../../lib/api';
import type { Settings, SettingsUpdate } from '../../lib/api-types';
import { setTimeZone } from '../../lib/format';
import { queryKeys, useSettings } from '../../lib/queries';

/** The editable part of Settings that the 'Save Changes' button sends with PUT /api/settings. */
export type Draft = Required<SettingsUpdate>;

export function toDraft(settings: Settings): Draft {
  const {
    darkMode,
    showBalance,
    showHashrate,
    theme,
    language,
    notifications,
    emailAlerts,
    autoLogout,
    timeZone,
  } = settings;
  return {
    timeZone,
    darkMode,
    showBalance,
    showHashrate,
    theme,
    language,
    notifications,
    emailAlerts,
    autoLogout,
  };
}

/** Dark Mode and Theme describe the same choice: a change to one updates the other. */
export function normalisePatch(patch: Partial<Draft>): Partial<Draft> {
  if (patch.theme !== undefined) return { ...patch, darkMode: patch.theme === 'dark' };
  if (patch.darkMode !== undefined) return { ...patch, theme: patch.darkMode ? 'dark' : 'light' };
  return patch;
}

export function useSettingsDraft() {
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [edits, setEdits] = useState<Partial<Draft>>({});
  const [push, setPush] = useState<PushOutcome | null>(null);
  const draft: Draft | null = settings.data ? { ...toDraft(settings.data), ...edits } : null;

  const save = useMutation({
    mutationFn: (body: Draft) => apiFetch<Settings>('/api/settings', { method: 'PUT', body }),
    onMutate: () => settings.data?.notifications,
    onSuccess: (saved, sent, before) => {
      queryClient.setQueryData(queryKeys.settings, saved);
      setTimeZone(saved.timeZone);
      setEdits({});
      const languageChanged = sent.language !== document.documentElement.lang;
      // Not awaited: an unanswered permission prompt must not keep the form saving.
      void syncPush(saved.notifications, saved.notifications !== before)
        .catch((): PushOutcome => 'failed')
        .then((outcome) => {
          setPush(outcome);
          if (languageChanged) switchLanguage(sent.language);
        });
    },
  });

  const change = (patch: Partial<Draft>): void => {
    save.reset();
    setPush(null);
    setEdits((current) => ({ ...current, ...normalisePatch(patch) }));
  };

  return { settings, draft, change, save, push };
}
