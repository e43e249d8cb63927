// The web app's own strings, so that the browser tests find controls by what a person reads,
// in English and in Arabic.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Language } from './browser.js';

type Tree = { [key: string]: string | Tree };

const WEB = new URL('../../apps/web/src/', import.meta.url);

function load(file: string): Tree {
  return JSON.parse(readFileSync(fileURLToPath(new URL(file, WEB)), 'utf8')) as Tree;
}

/** Each coin family's own strings (apps/web/src/coins/<family>/texts.<language>.json), as the app merges them. */
function familyFiles(language: Language): string[] {
  return readdirSync(new URL('coins/', WEB), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `coins/${entry.name}/texts.${language}.json`)
    .filter((file) => existsSync(new URL(file, WEB)));
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
  en: ['i18n/features.en.json', ...familyFiles('en')].map(load).reduce(merge, load('i18n/en.json')),
  ar: ['i18n/features.ar.json', ...familyFiles('ar')].map(load).reduce(merge, load('i18n/ar.json')),
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
