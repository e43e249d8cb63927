// The assistant's mapping of every keyword to an algorithm, over the contract's port
// table (names, ports, coins, hardware, fees). Keywords are matched by `matcher.ts`; see there for
// the word-boundary decisions. A coin family's rows have their words in its folder
// (coins/<family>/texts.ts, through the registry); the rows no family mines have theirs here.
import { PORT_TABLE, type PortAlgorithmName, type PortTableEntry } from '@manjam/contract';
import { FAMILY_TEXTS } from '../../coins/registry.js';
import { prefix, word, type AssistantWords, type Keyword } from '../../coins/texts.js';

/** The 19 algorithm names of the contract's PORT_TABLE, in its order. */
export const SEED_ALGORITHMS: readonly SeedAlgorithm[] = PORT_TABLE.map((row) => row.name);
export type SeedAlgorithm = PortAlgorithmName;

export type Hardware = PortTableEntry['hardware'];

export type { Keyword } from '../../coins/texts.js';

export interface AlgorithmInfo {
  name: SeedAlgorithm;
  coins: { en: string; ar: string };
  hardware: Hardware;
  seedPort: number;
  /** Fee key in config.accounting.feeBasisPoints, when the seed lists a fee. */
  feeId?: NonNullable<PortTableEntry['feeAlgorithm']>;
  /** The seed's published payout interval, for an algorithm the pool does not run yet. */
  publishedPayoutHours?: number;
  en: readonly Keyword[];
  ar: readonly Keyword[];
}

const p = prefix;
const w = word;

/**
 * The assistant's words for the PORT_TABLE rows no coin family mines (see `AssistantWords`); a
 * family brings the words of its own rows in its folder (coins/<family>/texts.ts).
 */
const SEED_WORDS: Partial<Record<SeedAlgorithm, AssistantWords>> = {
  'Scrypt-DOGE': {
    coin: { en: 'Dogecoin', ar: 'دوجكوين' },
    en: [p('doge')],
    ar: [p('دوجكوين'), w('دوج كوين'), w('دوجي كوين'), w('دوجي'), w('دوج')],
  },
  Blake2s: {
    coin: { en: 'Kadena', ar: 'كادينا' },
    en: [w('kda'), w('blake2s')],
    ar: [p('كادينا'), p('كادنا')],
  },
  Etchash: {
    coin: { en: 'Ethereum Classic', ar: 'إيثريوم كلاسيك' },
    en: [w('etc'), w('etchash')],
    ar: [p('ايثريوم كلاسيك'), p('ايثيريوم كلاسيك')],
  },
  Equihash: {
    coin: { en: 'Zcash', ar: 'زي كاش' },
    en: [w('zec')],
    ar: [p('زيكاش'), w('زي كاش'), w('زد كاش')],
  },
  Octopus: { coin: { en: 'Conflux', ar: 'كونفلكس' }, en: [w('cfx')], ar: [p('كونفلكس')] },
  Filecoin: {
    coin: { en: 'Filecoin', ar: 'فايلكوين' },
    en: [w('fil')],
    ar: [p('فايلكوين'), w('فايل كوين')],
  },
  Eaglesong: { coin: { en: 'Nervos', ar: 'نيرفوس' }, en: [w('ckb')], ar: [p('نيرفوس')] },
  ProgPow: { coin: { en: 'Quai', ar: 'كواي' }, nameAsWord: true, en: [w('progpow')], ar: [w('كواي')] },
  KawPow: {
    coin: { en: 'Ravencoin', ar: 'رافنكوين' },
    en: [w('rvn'), w('kawpow')],
    ar: [p('رافنكوين'), p('رافينكوين'), p('ريفنكوين')],
  },
  Blake3: {
    coin: { en: 'Alephium', ar: 'أليفيوم' },
    en: [w('alph'), w('blake3')],
    ar: [p('اليفيوم')],
  },
  'Autolykos-v2': {
    coin: { en: 'Ergo', ar: 'إيرجو' },
    nameAsWord: true,
    en: [w('erg'), p('autolykos')],
    ar: [w('ايرجو'), w('ارغو')],
  },
  'Equihash-125,4': {
    coin: { en: 'Flux', ar: 'فلوكس' },
    nameAsWord: true,
    en: [],
    ar: [w('فلوكس'), w('فلاكس')],
  },
  DynexSolve: {
    coin: { en: 'Dynex', ar: 'داينكس' },
    en: [w('dnx')],
    ar: [p('داينكس'), p('دينكس')],
  },
  FishHash: {
    coin: { en: 'Iron Fish', ar: 'آيرون فيش' },
    nameAsWord: true,
    en: [p('ironfish'), w('iron'), w('fishhash')],
    ar: [p('ايرونفيش'), w('ايرون فيش')],
  },
  Cuckaroo30: {
    coin: { en: 'Cortex', ar: 'كورتكس' },
    en: [w('ctxc'), p('cuckaroo')],
    ar: [p('كورتكس')],
  },
};

/** A row's words: its family's or the seed's, never both (a row with neither is a mistake). */
function wordsOf(name: SeedAlgorithm): AssistantWords {
  const found = [SEED_WORDS[name], ...FAMILY_TEXTS.map((family) => family.words[name])].filter(
    (words) => words !== undefined,
  );
  const [words] = found;
  if (found.length !== 1 || !words)
    throw new RangeError(`${name} has ${found.length} sets of assistant words`);
  return words;
}

export const ALGORITHM_TABLE: readonly AlgorithmInfo[] = PORT_TABLE.map((row) => {
  const words = wordsOf(row.name);
  return {
    name: row.name,
    coins: { en: `${words.coin.en} (${row.coin})`, ar: `${words.coin.ar} (${row.coin})` },
    hardware: row.hardware,
    seedPort: row.port,
    ...(row.feeAlgorithm ? { feeId: row.feeAlgorithm } : {}),
    ...(row.published ? { publishedPayoutHours: row.published.payoutHours } : {}),
    en: [(words.nameAsWord ? w : p)(words.coin.en), ...words.en],
    ar: words.ar,
  };
});

export function algorithmInfo(name: SeedAlgorithm): AlgorithmInfo {
  const info = ALGORITHM_TABLE.find((entry) => entry.name === name);
  if (!info) throw new RangeError(`unknown algorithm ${name}`);
  return info;
}
