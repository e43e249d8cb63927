// Server-side text (assistant replies, alert titles and bodies, durations) in catalogs: en.ts is
// the source of keys, ar.ts must give every key (catalog.test.ts fails on a missing Arabic text).
// A plural entry has one text per CLDR plural category of its language, chosen with
// Intl.PluralRules from the `count` value ("3 دقائق", "11 دقيقة", "دقيقتان").
import type { Language } from '@manjam/contract';
import { AR } from './ar.js';
import { EN, type TextKey } from './en.js';
import type { Catalog } from './types.js';

export type { TextKey } from './en.js';

export type { Catalog, CatalogEntry, PluralText } from './types.js';
export type TextValues = Record<string, string | number>;

export const CATALOGS: Record<Language, Catalog> = { en: EN, ar: AR };

const LOCALES: Record<Language, string> = { en: 'en', ar: 'ar' };
const plurals = new Map<Language, Intl.PluralRules>();

function pluralRules(language: Language): Intl.PluralRules {
  let rules = plurals.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(LOCALES[language]);
    plurals.set(language, rules);
  }
  return rules;
}

/** The text of `key` in `language` with `{name}` placeholders filled from `values`. */
export function text(language: Language, key: TextKey, values: TextValues = {}): string {
  const entry = CATALOGS[language][key];
  let template: string;
  if (typeof entry === 'string') {
    template = entry;
  } else {
    const count = values.count;
    if (typeof count !== 'number') throw new TypeError(`text ${key} is plural and needs a numeric count`);
    template = entry[pluralRules(language).select(count)] ?? entry.other;
  }
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}
