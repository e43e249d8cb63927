import { describe, expect, it } from 'vitest';
import ar from './ar.json';
import en from './en.json';
import featuresAr from './features.ar.json';
import featuresEn from './features.en.json';
import { resources } from './index';

const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}

function baseKeys(tree: unknown): Set<string> {
  return new Set(keys(tree).map((key) => key.replace(PLURAL, '')));
}

describe('translations', () => {
  it('has an Arabic string for every English key of the shell', () => {
    const arabic = baseKeys(ar);
    expect([...baseKeys(en)].filter((key) => !arabic.has(key))).toEqual([]);
  });

  it('has an Arabic string for every English key of the feature screens', () => {
    const arabic = baseKeys(featuresAr);
    expect([...baseKeys(featuresEn)].filter((key) => !arabic.has(key))).toEqual([]);
  });

  it("has, merged with every coin family's strings, an Arabic string for every English key and no other", () => {
    const [english, arabic] = [baseKeys(resources.en.translation), baseKeys(resources.ar.translation)];
    expect([...english].filter((key) => !arabic.has(key))).toEqual([]);
    expect([...arabic].filter((key) => !english.has(key))).toEqual([]);
    expect(english.has('coins.KAS') && english.has('setupGuide.kaspa.title')).toBe(true);
  });

  it('gives every Arabic plural all six forms', () => {
    const all = keys(ar).concat(keys(featuresAr));
    const plurals = new Set(all.filter((key) => PLURAL.test(key)).map((key) => key.replace(PLURAL, '')));
    const missing = [...plurals].flatMap((base) =>
      ['zero', 'one', 'two', 'few', 'many', 'other']
        .map((form) => `${base}_${form}`)
        .filter((key) => !all.includes(key)),
    );
    expect(missing).toEqual([]);
  });
});
