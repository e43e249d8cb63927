// The shapes of a server text catalog, apart from index.ts so ar.ts can name them without
// importing index.ts back (index.ts imports the catalogs: no import circle).
import type { StaticTextKey } from './en.js';

/** One text per plural category; `other` is required (CLDR's fallback). */
export type PluralText = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
export type CatalogEntry = string | PluralText;
export type Catalog = Record<StaticTextKey, CatalogEntry>;
