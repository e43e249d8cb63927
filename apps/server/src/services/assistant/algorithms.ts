// The seed's assistant mapping (section 9): every keyword -> algorithm, with the seed's port
// table. Keywords are matched by `matcher.ts`; see there for the word-boundary decisions.

export const SEED_ALGORITHMS = [
  'SHA-256',
  'Scrypt',
  'Scrypt-DOGE',
  'Blake2s',
  'kHeavyHash',
  'Etchash',
  'Equihash',
  'Octopus',
  'Filecoin',
  'Eaglesong',
  'ProgPow',
  'KawPow',
  'RandomX',
  'Blake3',
  'Autolykos-v2',
  'Equihash-125,4',
  'DynexSolve',
  'FishHash',
  'Cuckaroo30',
] as const;
export type SeedAlgorithm = (typeof SEED_ALGORITHMS)[number];

export type Hardware = 'asic' | 'gpu' | 'cpu';

/**
 * A keyword: one or more words. `word` must equal a whole word of the message; `prefix` must
 * start at a word boundary and may run on ("bitcoins", "sha256d", "البيتكوين" after its article).
 */
export interface Keyword {
  words: readonly string[];
  mode: 'word' | 'prefix';
}

export interface AlgorithmInfo {
  name: SeedAlgorithm;
  coins: { en: string; ar: string };
  hardware: Hardware;
  seedPort: number;
  /** Fee key in config.accounting.feeBasisPoints, when the seed lists a fee. */
  feeId?: 'sha256' | 'scrypt' | 'kadena' | 'kaspa';
  en: readonly Keyword[];
  ar: readonly Keyword[];
}

const p = (text: string): Keyword => ({ words: text.split(' '), mode: 'prefix' });
const w = (text: string): Keyword => ({ words: text.split(' '), mode: 'word' });

export const ALGORITHM_TABLE: readonly AlgorithmInfo[] = [
  { name: 'SHA-256', coins: { en: 'Bitcoin (BTC)', ar: 'بيتكوين (BTC)' }, hardware: 'asic', seedPort: 3333, feeId: 'sha256',
    en: [p('bitcoin'), w('btc'), p('sha256'), w('sha 256')], ar: [p('بيتكوين'), p('بتكوين'), w('بت كوين')] },
  { name: 'Scrypt', coins: { en: 'Litecoin (LTC)', ar: 'لايتكوين (LTC)' }, hardware: 'asic', seedPort: 4444, feeId: 'scrypt',
    en: [p('litecoin'), w('ltc'), w('scrypt')], ar: [p('لايتكوين'), p('ليتكوين'), w('لايت كوين')] },
  { name: 'Scrypt-DOGE', coins: { en: 'Dogecoin (DOGE)', ar: 'دوجكوين (DOGE)' }, hardware: 'asic', seedPort: 5555, feeId: 'scrypt',
    en: [p('doge'), p('dogecoin')], ar: [p('دوجكوين'), w('دوج كوين'), w('دوجي كوين'), w('دوجي'), w('دوج')] },
  { name: 'Blake2s', coins: { en: 'Kadena (KDA)', ar: 'كادينا (KDA)' }, hardware: 'asic', seedPort: 6666, feeId: 'kadena',
    en: [p('kadena'), w('kda'), w('blake2s')], ar: [p('كادينا'), p('كادنا')] },
  { name: 'kHeavyHash', coins: { en: 'Kaspa (KAS)', ar: 'كاسبا (KAS)' }, hardware: 'asic', seedPort: 7777, feeId: 'kaspa',
    en: [p('kaspa'), w('kas'), w('kheavyhash')], ar: [p('كاسبا')] },
  { name: 'Etchash', coins: { en: 'Ethereum Classic (ETC)', ar: 'إيثريوم كلاسيك (ETC)' }, hardware: 'gpu', seedPort: 8008,
    en: [p('ethereum classic'), w('etc'), w('etchash')], ar: [p('ايثريوم كلاسيك'), p('ايثيريوم كلاسيك')] },
  { name: 'Equihash', coins: { en: 'Zcash (ZEC)', ar: 'زي كاش (ZEC)' }, hardware: 'asic', seedPort: 3357,
    en: [p('zcash'), w('zec')], ar: [p('زيكاش'), w('زي كاش'), w('زد كاش')] },
  { name: 'Octopus', coins: { en: 'Conflux (CFX)', ar: 'كونفلكس (CFX)' }, hardware: 'gpu', seedPort: 6800,
    en: [p('conflux'), w('cfx')], ar: [p('كونفلكس')] },
  { name: 'Filecoin', coins: { en: 'Filecoin (FIL)', ar: 'فايلكوين (FIL)' }, hardware: 'gpu', seedPort: 7006,
    en: [p('filecoin'), w('fil')], ar: [p('فايلكوين'), w('فايل كوين')] },
  { name: 'Eaglesong', coins: { en: 'Nervos (CKB)', ar: 'نيرفوس (CKB)' }, hardware: 'asic', seedPort: 1800,
    en: [w('ckb'), p('nervos')], ar: [p('نيرفوس')] },
  { name: 'ProgPow', coins: { en: 'Quai (QUAI)', ar: 'كواي (QUAI)' }, hardware: 'gpu', seedPort: 1185,
    en: [w('quai'), w('progpow')], ar: [w('كواي')] },
  { name: 'KawPow', coins: { en: 'Ravencoin (RVN)', ar: 'رافنكوين (RVN)' }, hardware: 'gpu', seedPort: 1140,
    en: [p('ravencoin'), w('rvn'), w('kawpow')], ar: [p('رافنكوين'), p('رافينكوين'), p('ريفنكوين')] },
  { name: 'RandomX', coins: { en: 'Monero (XMR)', ar: 'مونيرو (XMR)' }, hardware: 'cpu', seedPort: 1111,
    en: [p('monero'), w('xmr'), w('randomx')], ar: [p('مونيرو')] },
  { name: 'Blake3', coins: { en: 'Alephium (ALPH)', ar: 'أليفيوم (ALPH)' }, hardware: 'gpu', seedPort: 1199,
    en: [p('alephium'), w('alph'), w('blake3')], ar: [p('اليفيوم')] },
  { name: 'Autolykos-v2', coins: { en: 'Ergo (ERG)', ar: 'إيرجو (ERG)' }, hardware: 'gpu', seedPort: 8888,
    en: [w('ergo'), w('erg'), p('autolykos')], ar: [w('ايرجو'), w('ارغو')] },
  { name: 'Equihash-125,4', coins: { en: 'Flux (FLUX)', ar: 'فلوكس (FLUX)' }, hardware: 'gpu', seedPort: 9090,
    en: [w('flux')], ar: [w('فلوكس'), w('فلاكس')] },
  { name: 'DynexSolve', coins: { en: 'Dynex (DNX)', ar: 'داينكس (DNX)' }, hardware: 'gpu', seedPort: 1120,
    en: [p('dynex'), w('dnx')], ar: [p('داينكس'), p('دينكس')] },
  { name: 'FishHash', coins: { en: 'Iron Fish (IRON)', ar: 'آيرون فيش (IRON)' }, hardware: 'gpu', seedPort: 1145,
    en: [p('ironfish'), w('iron fish'), w('iron'), w('fishhash')], ar: [p('ايرونفيش'), w('ايرون فيش')] },
  { name: 'Cuckaroo30', coins: { en: 'Cortex (CTXC)', ar: 'كورتكس (CTXC)' }, hardware: 'gpu', seedPort: 10320,
    en: [p('cortex'), w('ctxc'), p('cuckaroo')], ar: [p('كورتكس')] },
];

/** The seed's own keyword list (section 9), for tests that check every one of them is mapped. */
export const SEED_KEYWORDS: readonly (readonly [string, SeedAlgorithm])[] = [
  ['bitcoin', 'SHA-256'], ['btc', 'SHA-256'], ['sha256', 'SHA-256'],
  ['litecoin', 'Scrypt'], ['ltc', 'Scrypt'],
  ['doge', 'Scrypt-DOGE'], ['dogecoin', 'Scrypt-DOGE'],
  ['kadena', 'Blake2s'], ['kda', 'Blake2s'],
  ['kaspa', 'kHeavyHash'], ['kas', 'kHeavyHash'],
  ['ethereum classic', 'Etchash'], ['etc', 'Etchash'],
  ['zcash', 'Equihash'], ['zec', 'Equihash'],
  ['conflux', 'Octopus'], ['cfx', 'Octopus'],
  ['filecoin', 'Filecoin'], ['fil', 'Filecoin'],
  ['ckb', 'Eaglesong'], ['nervos', 'Eaglesong'],
  ['quai', 'ProgPow'],
  ['ravencoin', 'KawPow'], ['rvn', 'KawPow'],
  ['monero', 'RandomX'], ['xmr', 'RandomX'],
  ['alephium', 'Blake3'], ['alph', 'Blake3'],
  ['ergo', 'Autolykos-v2'], ['erg', 'Autolykos-v2'],
  ['flux', 'Equihash-125,4'],
  ['dynex', 'DynexSolve'], ['dnx', 'DynexSolve'],
  ['ironfish', 'FishHash'], ['iron', 'FishHash'],
  ['cortex', 'Cuckaroo30'], ['ctxc', 'Cuckaroo30'],
];

export function algorithmInfo(name: SeedAlgorithm): AlgorithmInfo {
  const info = ALGORITHM_TABLE.find((entry) => entry.name === name);
  if (!info) throw new RangeError(`unknown algorithm ${name}`);
  return info;
}
