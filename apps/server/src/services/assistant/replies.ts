import { algorithmInfo, type Hardware, type SeedAlgorithm } from './algorithms.js';
import { DEFAULT_POOL_COIN, PORT_TABLE, portRowOfPoolCoin } from '@manjam/contract';
import { CATALOGS, text, type TextKey } from '../../i18n/index.js';
import { formatEvery, formatHashrate } from '../shared/format.js';
import type { Device } from './devices.js';
import type { Language } from './matcher.js';
import { livePorts, portsOf, stratumUrl, type PoolInfo, type PoolPort } from './pool-info.js';

// The rule engine's fixed answers; their text is in the server catalogs (i18n/en.ts, i18n/ar.ts).
// Hosts, ports and fees come from the pool's configuration, never from constants.

export const FALLBACK: Record<Language, string> = {
  en: text('en', 'assistant.fallback'),
  ar: text('ar', 'assistant.fallback'),
};

/** Three independent profitability calculators plus Manjam's own page. */
export const PROFITABILITY_LINKS = [
  'https://whattomine.com',
  'https://minerstat.com/mining-calculator',
  'https://www.hashrate.no',
] as const;
export const OWN_CALCULATOR_PATH = '/mining/calculator';

export const QUICK_REPLIES = [
  { id: 'bitcoin-mining', en: 'Bitcoin Mining', ar: 'تعدين البيتكوين' },
  { id: 'mining-hardware', en: 'Mining Hardware', ar: 'أجهزة التعدين' },
  { id: 'how-to-start', en: 'How to Start Mining', ar: 'كيف أبدأ التعدين' },
  { id: 'profitability', en: 'Profitability', ar: 'الربحية' },
  { id: 'about-pool', en: 'About the pool', ar: 'عن المجمع' },
] as const;

const HARDWARE_KEY = {
  asic: 'assistant.hardware.asic',
  gpu: 'assistant.hardware.gpu',
  cpu: 'assistant.hardware.cpu',
} as const satisfies Record<Hardware, TextKey>;

function feeText(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const fee = pool.feeBasisPoints[algorithm];
  if (fee === undefined) return '';
  const percent = (fee / 100).toFixed(1);
  const hours = pool.payoutHours[algorithm] ?? pool.payoutIntervalHours;
  return text(language, 'assistant.fee', { percent, every: formatEvery(hours, language) });
}

function liveList(pool: PoolInfo): string {
  return livePorts(pool)
    .map((port) => `${port.algorithm} ${stratumUrl(pool, port)}`)
    .join(', ');
}

function portLine(pool: PoolInfo, port: PoolPort, language: Language): string {
  if (port.live) return text(language, 'assistant.port.live', { url: stratumUrl(pool, port) });
  return text(language, 'assistant.port.notLive', { port: port.port, live: liveList(pool) });
}

/** "Litecoin (LTC) uses Scrypt: stratum+tcp://host:4444 (live). Usually mined with ASIC miners." */
export function algorithmAnswer(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const info = algorithmInfo(algorithm);
  const ports = portsOf(pool, algorithm)
    .map((port) => portLine(pool, port, language))
    .join('; ');
  const hardware = text(language, HARDWARE_KEY[info.hardware]);
  const fee = feeText(pool, algorithm, language);
  return text(language, 'assistant.algorithm', {
    coin: info.coins[language],
    algorithm,
    ports,
    hardware,
    fee,
  });
}

/** The port for one algorithm, briefly ("which port for litecoin"). */
export function portAnswer(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const info = algorithmInfo(algorithm);
  const ports = portsOf(pool, algorithm)
    .map((port) => portLine(pool, port, language))
    .join('; ');
  return text(language, 'assistant.port', { coin: info.coins[language], algorithm, ports });
}

function setupPort(pool: PoolInfo, algorithm: SeedAlgorithm | undefined): PoolPort | undefined {
  if (algorithm) return portsOf(pool, algorithm)[0];
  return livePorts(pool)[0] ?? pool.ports[0];
}

const SETUP_KEY = {
  asic: 'assistant.setup.asic',
  gpu: 'assistant.setup.gpu',
  cpu: 'assistant.setup.cpu',
} as const satisfies Record<Hardware, TextKey>;

/** GPU/CPU software setup or ASIC web-page setup, with the real URL; `account` personalises the example. */
export function setupAnswer(
  pool: PoolInfo,
  kind: Hardware,
  language: Language,
  algorithm?: SeedAlgorithm,
  account?: string,
): string {
  const port = setupPort(pool, algorithm);
  const url = port
    ? stratumUrl(pool, port)
    : `stratum+tcp://${pool.host}:${portRowOfPoolCoin(DEFAULT_POOL_COIN).port}`;
  const user = `${account ?? text(language, 'assistant.example.account')}.worker1`;
  const notLive = port && !port.live ? text(language, 'assistant.setup.notLive') : '';
  const own = ownSetupKeys(algorithm);
  if (own) return ownSetup(language, kind, own, { notLive, url, user });
  const setup = text(language, SETUP_KEY[kind], { notLive, url, user, algorithm: algorithm ?? '' });
  if (kind !== 'cpu' || !port || port.live) return setup;
  // Said plainly: a CPU miner cannot earn on a port that does not accept shares.
  const plain = text(language, 'assistant.setup.cpuNotLive', {
    algorithm: port.algorithm,
    coin: algorithmInfo(port.algorithm).coins[language],
    port: port.port,
    live: liveList(pool),
  });
  return `${plain} ${setup}`;
}

const isTextKey = (key: string): key is TextKey => Object.hasOwn(CATALOGS.en, key);

/**
 * The catalog's setup words of an algorithm that has its own: `assistant.setup.<its API id>` for
 * every device it is mined with (an ASIC's web page, GPU software with the flags their developers
 * publish: host:port or the stratum URL) and `assistant.setup.<id>Cpu`, the plain word on how
 * little a CPU hashes on it that goes before them for a CPU question.
 */
function ownSetupKeys(algorithm: SeedAlgorithm | undefined): { setup: TextKey; cpu: TextKey } | undefined {
  const id = PORT_TABLE.find((row) => row.name === algorithm)?.account;
  if (!id) return undefined;
  const [setup, cpu] = [`assistant.setup.${id}`, `assistant.setup.${id}Cpu`];
  return isTextKey(setup) && isTextKey(cpu) ? { setup, cpu } : undefined;
}

function ownSetup(
  language: Language,
  kind: Hardware,
  keys: { setup: TextKey; cpu: TextKey },
  values: { notLive: string; url: string; user: string },
): string {
  const hostPort = values.url.replace(/^stratum\+tcp:\/\//, '');
  const setup = text(language, keys.setup, { ...values, hostPort });
  return kind === 'cpu' ? `${text(language, keys.cpu)} ${setup}` : setup;
}

/** Power draw and electricity cost of a named device (maker's watts), or how to work it out. */
export function powerAnswer(device: Device | undefined, language: Language): string {
  if (!device) return text(language, 'assistant.power.generic', { calculator: OWN_CALCULATOR_PATH });
  const kwhDay = (device.watts * 24) / 1000;
  const digits = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  return text(language, 'assistant.power.device', {
    device: device.name,
    hashrate: formatHashrate(device.hashrate),
    algorithm: device.algorithm,
    watts: device.watts,
    kwhDay: digits(kwhDay),
    kwhMonth: digits(kwhDay * 30),
    calculator: OWN_CALCULATOR_PATH,
  });
}

export function profitAnswer(language: Language): string {
  const links = PROFITABILITY_LINKS.join(' , ');
  return text(language, 'assistant.profit', { links, calculator: OWN_CALCULATOR_PATH });
}

export function hardwareAnswer(pool: PoolInfo, language: Language): string {
  return text(language, 'assistant.hardware', { live: liveList(pool) });
}

export function startAnswer(pool: PoolInfo, language: Language, account?: string): string {
  const port = livePorts(pool)[0];
  const url = port
    ? stratumUrl(pool, port)
    : `stratum+tcp://${pool.host}:${portRowOfPoolCoin(DEFAULT_POOL_COIN).port}`;
  const user = `${account ?? text(language, 'assistant.example.username')}.worker1`;
  return text(language, 'assistant.start', { user, url, live: liveList(pool) });
}

function schemeName(scheme: string): string {
  return scheme === 'pps-plus' ? 'PPS+' : scheme.toUpperCase();
}

export function aboutAnswer(pool: PoolInfo, language: Language): string {
  const fees = livePorts(pool)
    .map((port) => `${port.algorithm} ${((pool.feeBasisPoints[port.algorithm] ?? 0) / 100).toFixed(1)}%`)
    .join(', ');
  const every = formatEvery(pool.payoutIntervalHours, language);
  // One scheme when every live port pays the same way, else each port with its own.
  const live = livePorts(pool);
  const schemes = new Set(live.map((port) => port.scheme ?? 'pps-plus'));
  const scheme =
    schemes.size <= 1
      ? schemeName([...schemes][0] ?? 'pps-plus')
      : live.map((port) => `${schemeName(port.scheme ?? 'pps-plus')} (${port.port})`).join(', ');
  const thresholds = Object.entries(pool.payoutThresholds)
    .map(([coin, range]) =>
      text(language, 'assistant.thresholds.coin', {
        coin,
        default: `${range.default} ${coin}`,
        minimum: `${range.minimum} ${coin}`,
        maximum: `${range.maximum} ${coin}`,
      }),
    )
    .join(language === 'ar' ? '؛ ' : '; ');
  return text(language, 'assistant.about', { live: liveList(pool), fees, scheme, every, thresholds });
}

export function signInAnswer(language: Language): string {
  return text(language, 'assistant.signIn');
}
