import { describe, expect, it } from 'vitest';
import { resources } from './index';

/**
 * Strings the seed names word for word (seed: Home page, Worker Dashboard, Miner search), in
 * English as the seed writes them, with the Arabic the app shows in their place.
 */
const SEED_STRINGS: { key: string; en: string; ar: string }[] = [
  {
    key: 'home.searchPlaceholder',
    en: 'Search by wallet address or worker ID',
    ar: 'ابحث بعنوان المحفظة أو معرّف العامل',
  },
  { key: 'workers.totalHashrate', en: 'Total Hashrate', ar: 'إجمالي معدل التجزئة' },
  { key: 'workers.activeWorkers', en: 'Active Workers', ar: 'العمّال النشطون' },
  {
    key: 'search.blank',
    en: 'Please enter a wallet address or worker ID',
    ar: 'يرجى إدخال عنوان محفظة أو معرّف عامل',
  },
  { key: 'marketplace.title', en: 'Marketplace Coming Soon', ar: 'السوق قريبًا' },
];

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => {
    if (typeof node !== 'object' || node === null) return undefined;
    return (node as Record<string, unknown>)[part];
  }, tree);
}

describe("the seed's strings", () => {
  it.each(SEED_STRINGS)('shows $en where the seed names it, in English and in Arabic ($key)', (row) => {
    expect(lookup(resources.en.translation, row.key)).toBe(row.en);
    expect(lookup(resources.ar.translation, row.key)).toBe(row.ar);
  });
});
