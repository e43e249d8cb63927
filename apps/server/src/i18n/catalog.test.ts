import { describe, expect, it } from 'vitest';
import { CATALOGS, text, type CatalogEntry, type MergedCatalog } from './index.js';

// The merged catalogs: the shared texts with each family's own (coins/<family>/texts.ts).
const entries = (catalog: MergedCatalog): Record<string, CatalogEntry> =>
  Object.fromEntries(
    Object.entries(catalog).filter((entry): entry is [string, CatalogEntry] => entry[1] !== undefined),
  );
const [EN, AR] = [entries(CATALOGS.en), entries(CATALOGS.ar)];

const placeholders = (entry: CatalogEntry): string[] => {
  const texts = typeof entry === 'string' ? [entry] : Object.values(entry);
  return [...new Set(texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')))].sort();
};
const ARABIC_CATEGORIES = new Intl.PluralRules('ar').resolvedOptions().pluralCategories;
const ENGLISH_CATEGORIES = new Intl.PluralRules('en').resolvedOptions().pluralCategories;

describe('server text catalogs (en, ar)', () => {
  it('has an Arabic text for every English key, and no Arabic key English lacks', () => {
    const missing = Object.keys(EN).filter((key) => !(key in AR));
    expect(missing).toEqual([]);
    expect(Object.keys(AR).filter((key) => !(key in EN))).toEqual([]);
  });

  it('writes every Arabic text in Arabic script, with the same placeholders as the English one', () => {
    for (const [key, english] of Object.entries(EN)) {
      const arabic = AR[key] ?? '';
      const texts = typeof arabic === 'string' ? [arabic] : Object.values(arabic);
      for (const t of texts) {
        if (!/^\{\w+\}$/.test(t)) expect(t, key).toMatch(/[\u0600-\u06FF]/);
      }
      expect(placeholders(arabic), key).toEqual(placeholders(english));
    }
  });

  it('gives every plural text each CLDR plural form of its language', () => {
    for (const [key, english] of Object.entries(EN)) {
      if (typeof english !== 'string')
        expect(Object.keys(english).sort(), key).toEqual(expect.arrayContaining(['other']));
      if (typeof english !== 'string')
        for (const form of Object.keys(english)) expect(ENGLISH_CATEGORIES, key).toContain(form);
      const arabic = AR[key] ?? '';
      if (typeof arabic !== 'string')
        expect(Object.keys(arabic).sort(), key).toEqual([...ARABIC_CATEGORIES].sort());
    }
  });

  it('counts in Arabic with CLDR plural rules', () => {
    const minutes = [0, 1, 2, 3, 10, 11, 99, 100].map((count) => text('ar', 'duration.minutes', { count }));
    expect(minutes).toEqual([
      '0 دقيقة',
      'دقيقة واحدة',
      'دقيقتان',
      '3 دقائق',
      '10 دقائق',
      '11 دقيقة',
      '99 دقيقة',
      '100 دقيقة',
    ]);
    expect(text('ar', 'duration.hours', { count: 5 })).toBe('5 ساعات');
    expect(text('ar', 'payout.every', { count: 12 })).toBe('كل 12 ساعة');
    expect(text('en', 'duration.minutes', { count: 1 })).toBe('1 minute');
    expect(text('en', 'duration.minutes', { count: 3 })).toBe('3 minutes');
  });

  it('fills placeholders and refuses a plural text without a count', () => {
    expect(text('en', 'alert.payoutSent.title', { amount: '0.01 BTC' })).toBe('Payout of 0.01 BTC sent');
    expect(() => text('en', 'duration.days')).toThrow(/needs a numeric count/);
  });
});
