import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../lib/api-types';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import en from './en.json';
import ar from './ar.json';
import featuresEn from './features.en.json';
import featuresAr from './features.ar.json';

type Tree = { [key: string]: unknown };

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges feature strings into the shell's strings; on a clash the feature file wins. */
export function deepMerge(base: Tree, extra: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const existing = out[key];
    out[key] = isTree(existing) && isTree(value) ? deepMerge(existing, value) : value;
  }
  return out;
}

export const resources = {
  en: { translation: deepMerge(en, featuresEn) },
  ar: { translation: deepMerge(ar, featuresAr) },
} as const;

export function storedLanguage(): Language {
  return readStorage(STORAGE_KEYS.language) === 'ar' ? 'ar' : 'en';
}

/** Sets <html lang> and <html dir> for a language. */
export function applyDocumentLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
}

/** The page reload, behind an object so tests can observe it (jsdom cannot navigate). */
export const pageReload = { reload: (): void => window.location.reload() };

/** Stores the language and reloads the page (seed: changing language reloads). */
export function switchLanguage(lang: Language): void {
  writeStorage(STORAGE_KEYS.language, lang);
  pageReload.reload();
}

export function initI18n(lang: Language = storedLanguage()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: lang,
      fallbackLng: 'en',
      supportedLngs: ['en', 'ar'],
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
    });
  } else if (i18n.language !== lang) {
    void i18n.changeLanguage(lang);
  }
  applyDocumentLanguage(lang);
  return i18n;
}

export default i18n;
