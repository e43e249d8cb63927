import 'i18next';
import type en from './en.json';
import type featuresEn from './features.en.json';

// Translation keys are typed from the English files (en.json is the source of keys).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof featuresEn };
    returnNull: false;
  }
}
