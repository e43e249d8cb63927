// The words a family brings to the shared server, in its own folder (coins/<family>/texts.ts),
// gathered by the registry: its catalog texts in English and Arabic (i18n/index.ts merges them
// into the catalogs) and the assistant's words for the PORT_TABLE rows it mines
// (services/assistant/algorithms.ts reads them). Neither i18n nor the assistant is imported
// here: they import coins, never the other way.
import type { PortAlgorithmName } from '@manjam/contract';

/** A family's own catalog key: setup words of its own, `assistant.setup.<API id>` and `<API id>Cpu`. */
export type FamilyTextKey = `assistant.setup.${string}`;

/**
 * A keyword: one or more words. `word` must equal a whole word of the message; `prefix` must
 * start at a word boundary and may run on ("bitcoins", "sha256d", "البيتكوين" after its article).
 */
export interface Keyword {
  words: readonly string[];
  mode: 'word' | 'prefix';
}

export const prefix = (text: string): Keyword => ({ words: text.split(' '), mode: 'prefix' });
export const word = (text: string): Keyword => ({ words: text.split(' '), mode: 'word' });

/**
 * What the assistant adds to a PORT_TABLE row: the coin's name in both languages and the
 * keywords besides its English name, which is always one: a prefix ("bitcoins", "litecoins"), or a
 * whole word (`nameAsWord`) where the name is also an ordinary word ("flux", "ergo", "iron fish").
 */
export interface AssistantWords {
  coin: { en: string; ar: string };
  nameAsWord?: true;
  en: readonly Keyword[];
  ar: readonly Keyword[];
}

export interface FamilyTexts {
  en: Readonly<Partial<Record<FamilyTextKey, string>>>;
  ar: Readonly<Partial<Record<FamilyTextKey, string>>>;
  /** The assistant's words for each PORT_TABLE row the family mines, by the row's name. */
  words: Readonly<Partial<Record<PortAlgorithmName, AssistantWords>>>;
}

/** A family's texts, its Arabic catalog holding exactly the keys of its English one. */
export function familyTexts<K extends FamilyTextKey>(texts: {
  en: Readonly<Record<K, string>>;
  ar: Readonly<Record<K, string>>;
  words: FamilyTexts['words'];
}): FamilyTexts {
  return texts;
}
