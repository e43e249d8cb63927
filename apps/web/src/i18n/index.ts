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

/**
 * Each coin family's own strings, in its folder (`coins/<family>/texts.<language>.json`: its coins,
 * address checks, algorithm pages, footer link, home card and setup-guide texts), found by name as
 * its screens are, so no list of families is kept here. Their key types are the registry's.
 */
const FAMILY_TEXTS = import.meta.glob<Tree>('../coins/*/texts.*.json', { eager: true, import: 'default' });

function familyTexts(language: Language): Tree[] {
  return Object.entries(FAMILY_TEXTS)
    .filter(([path]) => path.endsWith(`/texts.${language}.json`))
    .map(([, tree]) => tree);
}

/** The shell's strings, the feature screens' and each family's, merged. */
function translation(language: Language, shell: Tree, features: Tree): Tree {
  return [features, ...familyTexts(language)].reduce(deepMerge, shell);
}

export const resources = {
  en: { translation: translation('en', en, featuresEn) },
  ar: { translation: translation('ar', ar, featuresAr) },
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
