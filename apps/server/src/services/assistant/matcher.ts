import type { Language as ContractLanguage } from '@manjam/contract';
import { ALGORITHM_TABLE, type Keyword, type SeedAlgorithm } from './algorithms.js';

// How keywords are matched (a deliberate departure from the seed's raw "case-insensitive
// substring", which answers nonsense: 'etc' inside "fetch", 'fil' inside "profile", 'iron' inside
// "environment", 'erg' inside "energy", 'roi' inside "android", 'flux' inside "conflux", and in
// Arabic 'دوج' inside "مزدوج" (double)):
//  - The message is split into words (runs of letters/digits), lower-cased; Arabic is normalized
//    (diacritics and tatweel removed, أ/إ/آ -> ا, ى -> ي, ة -> ه).
//  - Short tickers and ambiguous words ('btc', 'kas', 'etc', 'fil', 'iron', 'erg', 'ergo', 'flux',
//    'quai', 'alph', ...) must be a whole word. Coin names ('bitcoin', 'litecoin', 'dogecoin', ...)
//    must start a word and may run on ("bitcoins", "sha256d").
//  - An Arabic word may carry a one- or two-letter prefix (ال, و, ب, ل, ف, ك, بال, وال, لل, ...):
//    "البيتكوين", "للايتكوين" and "وكاسبا" all match.
//  - Lower-case "etc." (with its period) is read as "et cetera", never as Ethereum Classic;
//    "ETC", "ETC." and "etc" without a period are the coin.
//  - 'أرجو' ("please") is not taken for Ergo: the Arabic Ergo keywords are 'إيرجو' and 'ارغو'.

const ARABIC_LETTER = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/u;
const ARABIC_PREFIXES = ['وبال', 'وال', 'بال', 'فال', 'كال', 'لل', 'ال', 'و', 'ب', 'ل', 'ف', 'ك'];

export type Language = ContractLanguage;

/** The seed's rule: Arabic if the text contains an Arabic letter, else English. */
export function detectLanguage(text: string): Language {
  return ARABIC_LETTER.test(text) ? 'ar' : 'en';
}

export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670\u0640]/gu, '')
    .replace(/[أإآٱ]/gu, 'ا')
    .replace(/ى/gu, 'ي')
    .replace(/ة/gu, 'ه')
    .replace(/ؤ/gu, 'و')
    .replace(/ئ/gu, 'ي')
    .replace(/[٠-٩]/gu, (digit) => String(digit.charCodeAt(0) - 0x0660));
}

/** A message prepared once for many keyword checks: each word with its prefix-stripped forms. */
export interface Prepared {
  raw: string;
  words: string[];
  /** For each word, itself plus the forms without an Arabic prefix. */
  forms: string[][];
}

export function prepare(message: string): Prepared {
  const withoutEtCetera = message.replace(/\betc\./g, ' ');
  const words = normalize(withoutEtCetera).match(/[\p{L}\p{N}]+/gu) ?? [];
  const forms = words.map((word) => {
    const variants = [word];
    if (ARABIC_LETTER.test(word)) {
      for (const prefix of ARABIC_PREFIXES) {
        if (word.startsWith(prefix) && word.length - prefix.length >= 2)
          variants.push(word.slice(prefix.length));
      }
    }
    return variants;
  });
  return { raw: message, words, forms };
}

function wordMatches(candidate: string, wanted: string, mode: Keyword['mode'], last: boolean): boolean {
  return last && mode === 'prefix' ? candidate.startsWith(wanted) : candidate === wanted;
}

const normalizedWords = new WeakMap<Keyword, string[]>();

function wantedWords(keyword: Keyword): string[] {
  let words = normalizedWords.get(keyword);
  if (!words) {
    words = keyword.words.map((word) => normalize(word));
    normalizedWords.set(keyword, words);
  }
  return words;
}

/** The index of the first word where the keyword matches, or -1. */
export function keywordIndex(prepared: Prepared, keyword: Keyword): number {
  const wanted = wantedWords(keyword);
  for (let start = 0; start + wanted.length <= prepared.words.length; start += 1) {
    const ok = wanted.every((part, offset) => {
      const last = offset === wanted.length - 1;
      const candidates =
        offset === 0 ? (prepared.forms[start] ?? []) : [prepared.words[start + offset] ?? ''];
      return candidates.some((candidate) => wordMatches(candidate, part, keyword.mode, last));
    });
    if (ok) return start;
  }
  return -1;
}

export function hasKeyword(prepared: Prepared, keywords: readonly Keyword[]): boolean {
  return keywords.some((keyword) => keywordIndex(prepared, keyword) >= 0);
}

/** Builds keywords from plain strings: 'word:xyz' is a whole word, anything else a prefix. */
export function keywords(...texts: string[]): Keyword[] {
  return texts.map((text) =>
    text.startsWith('word:')
      ? { words: text.slice(5).split(' '), mode: 'word' }
      : { words: text.split(' '), mode: 'prefix' },
  );
}

/** Algorithms named in a message, in the order they appear, each once (English and Arabic keywords). */
export function findAlgorithms(prepared: Prepared): SeedAlgorithm[] {
  const found: { name: SeedAlgorithm; at: number }[] = [];
  for (const entry of ALGORITHM_TABLE) {
    const positions = [...entry.en, ...entry.ar]
      .map((keyword) => keywordIndex(prepared, keyword))
      .filter((at) => at >= 0);
    if (positions.length > 0) found.push({ name: entry.name, at: Math.min(...positions) });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.name);
}
