import 'i18next';
import type en from './en.json';
import type featuresEn from './features.en.json';
import type { FamilyTranslations } from '../coins/registry';

// Translation keys are typed from the English files (en.json is the source of keys; each family's
// own are its coins/<family>/texts.en.json, gathered by the registry).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof featuresEn & FamilyTranslations };
    returnNull: false;
  }
}
