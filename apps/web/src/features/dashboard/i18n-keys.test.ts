import { describe, expect, it } from 'vitest';
import ar from '../../i18n/features.ar.json';
import en from '../../i18n/features.en.json';

type Tree = { [key: string]: unknown };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as Tree, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe('data-screen translations', () => {
  it('has an Arabic string for every English key and no extra ones', () => {
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });

  it('keeps the agreed top-level groups only', () => {
    expect(Object.keys(en).sort()).toEqual([
      'dashboard',
      'figures',
      'miners',
      'monitoring',
      'payouts',
      'revenue',
      'search',
      'setupGuide',
      'watch',
      'workers',
    ]);
  });

  it('gives every counted Arabic string all six plural forms', () => {
    const plurals = keys(ar)
      .filter((k) => k.endsWith('_other'))
      .map((k) => k.slice(0, -'_other'.length));
    expect(plurals.length).toBeGreaterThan(0);
    for (const base of plurals) {
      for (const form of ['zero', 'one', 'two', 'few', 'many', 'other'])
        expect(keys(ar)).toContain(`${base}_${form}`);
    }
  });

  it('keeps the seed messages word for word in English', () => {
    expect(en.dashboard.loadError).toBe('Failed to load dashboard data. Please try again later.');
    expect(en.dashboard.noUser).toBe('No user data found');
    expect(en.miners.copied).toBe('Connection string copied to clipboard!');
    expect(en.miners.copyFailed).toBe('Failed to copy connection string. Please try again.');
    expect(en.miners.deleteConfirm).toBe(
      'Are you sure you want to delete the miner "{{name}}"? This action cannot be undone.',
    );
    // Public search is by wallet address only (issue 13): the seed's 'or worker ID' is gone.
    expect(en.search.blank).toBe('Please enter a wallet address or worker ID');
    expect(en.search.error).toBe('Error fetching miner data. Please try again.');
    expect(en.setupGuide.step1.empty).toBe('Please enter a worker name');
    expect(en.setupGuide.step4.success).toBe('Connection successful! Worker registered');
    expect(en.setupGuide.step4.failed).toBe('Connection failed. Please check your settings and try again.');
    expect(en.workers.updated).toBe('Worker updated successfully!');
    expect(en.workers.deleted).toBe('Worker deleted successfully!');
  });
});
