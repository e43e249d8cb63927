import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../i18n';

/** EN / العربية switch: stores `language` and reloads (seed). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = i18n.language === 'ar' ? 'ar' : 'en';
  return (
    <div className={`lang-switch ${className ?? ''}`} role="group" aria-label={t('nav.language')}>
      <button type="button" lang="en" aria-pressed={current === 'en'} onClick={() => current !== 'en' && switchLanguage('en')}>
        EN
      </button>
      <button type="button" lang="ar" aria-pressed={current === 'ar'} onClick={() => current !== 'ar' && switchLanguage('ar')}>
        العربية
      </button>
    </div>
  );
}
