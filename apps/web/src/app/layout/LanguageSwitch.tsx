import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../i18n';
import { apiFetch } from '../../lib/api';
import type { Language } from '../../lib/api-types';
import { getAuthSnapshot } from '../../lib/auth';

/**
 * Signed in, the choice is also saved to the account (PUT /api/settings) first, so the account's
 * language, which the app adopts on start, does not switch it back. Saving is best effort.
 */
async function chooseLanguage(lang: Language): Promise<void> {
  if (getAuthSnapshot().isSignedIn) {
    try {
      await apiFetch('/api/settings', { method: 'PUT', body: { language: lang } });
    } catch {
      // Offline or signed out meanwhile: switch this browser anyway.
    }
  }
  switchLanguage(lang);
}

/** EN / العربية switch: stores `language` and reloads (seed). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const current = i18n.language === 'ar' ? 'ar' : 'en';
  const choose = (lang: Language): void => {
    if (busy || lang === current) return;
    setBusy(true);
    void chooseLanguage(lang);
  };
  return (
    <div className={`lang-switch ${className ?? ''}`} role="group" aria-label={t('nav.language')}>
      <button type="button" lang="en" aria-pressed={current === 'en'} onClick={() => choose('en')}>
        EN
      </button>
      <button type="button" lang="ar" aria-pressed={current === 'ar'} onClick={() => choose('ar')}>
        العربية
      </button>
    </div>
  );
}
