// The web app's own strings, so that the browser tests find controls by what a person reads,
// in English and in Arabic.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Language } from './browser.js';

type Tree = { [key: string]: string | Tree };

function load(file: string): Tree {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../apps/web/src/i18n/${file}`, import.meta.url)), 'utf8'),
  ) as Tree;
}

function merge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const current = out[key];
    out[key] = typeof value === 'object' && typeof current === 'object' ? merge(current, value) : value;
  }
  return out;
}

const dictionaries: Record<Language, Tree> = {
  en: merge(load('en.json'), load('features.en.json')),
  ar: merge(load('ar.json'), load('features.ar.json')),
};

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** A key with a numeric `count` falls back to its plural form (`left_few`), as i18next picks it. */
export function translator(language: Language) {
  const plural = new Intl.PluralRules(language);
  return (key: string, vars: Record<string, string | number> = {}): string => {
    const count = vars.count;
    const node =
      lookup(dictionaries[language], key) ??
      (typeof count === 'number'
        ? lookup(dictionaries[language], `${key}_${plural.select(count)}`)
        : undefined);
    if (node === undefined) throw new Error(`no ${language} text for ${key}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
  };
}
