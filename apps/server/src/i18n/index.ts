// Server-side text (assistant replies, alert titles and bodies, durations) in catalogs: en.ts is
// the source of keys, ar.ts must give every key (catalog.test.ts fails on a missing Arabic text).
// A plural entry has one text per CLDR plural category of its language, chosen with
// Intl.PluralRules from the `count` value ("3 دقائق", "11 دقيقة", "دقيقتان").
// Each coin family's own texts are in its folder (coins/<family>/texts.ts) and merged in here
// through the server's family registry: i18n imports coins, coins never imports i18n.
import type { Language } from '@manjam/contract';
import { FAMILY_TEXTS } from '../coins/registry.js';
import type { FamilyTextKey } from '../coins/texts.js';
import { AR } from './ar.js';
import { EN, type StaticTextKey } from './en.js';
import type { Catalog } from './types.js';

/** A text's key: one of en.ts or a family's own (coins/<family>/texts.ts). */
export type TextKey = StaticTextKey | FamilyTextKey;

export type { Catalog, CatalogEntry, PluralText } from './types.js';
export type TextValues = Record<string, string | number>;

/** A language's catalog: its shared texts with every family's own. */
export type MergedCatalog = Catalog & Readonly<Partial<Record<FamilyTextKey, string>>>;

export const CATALOGS: Record<Language, MergedCatalog> = {
  en: Object.assign({}, EN, ...FAMILY_TEXTS.map((family) => family.en)) as MergedCatalog,
  ar: Object.assign({}, AR, ...FAMILY_TEXTS.map((family) => family.ar)) as MergedCatalog,
};

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
  if (entry === undefined) throw new RangeError(`no text ${key} in ${language}`);
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
