// The Bitcoin family's words on the shared server: the assistant's words for its rows (its setup
// is the catalog's ASIC and GPU text, so it has no catalog text of its own).
import { familyTexts, prefix, word } from '../texts.js';

export const bitcoinTexts = familyTexts({
  en: {},
  ar: {},
  words: {
    'SHA-256': {
      coin: { en: 'Bitcoin', ar: 'بيتكوين' },
      en: [word('btc'), prefix('sha256'), word('sha 256')],
      ar: [prefix('بيتكوين'), prefix('بتكوين'), word('بت كوين')],
    },
    Scrypt: {
      coin: { en: 'Litecoin', ar: 'لايتكوين' },
      en: [word('ltc'), word('scrypt')],
      ar: [prefix('لايتكوين'), prefix('ليتكوين'), word('لايت كوين')],
    },
  },
});
