// Monero's words on the shared server: the assistant's words for its row (its setup is the
// catalog's CPU text, so it has no catalog text of its own).
import { familyTexts, prefix, word } from '../texts.js';

export const moneroTexts = familyTexts({
  en: {},
  ar: {},
  words: {
    RandomX: {
      coin: { en: 'Monero', ar: 'مونيرو' },
      en: [word('xmr'), word('randomx')],
      ar: [prefix('مونيرو')],
    },
  },
});
