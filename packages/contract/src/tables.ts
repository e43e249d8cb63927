// The contract's plain tables and predicates: no zod, so a process that validates no API request
// (a `--role stratum` process: its configuration, Stratum logins, bans, worker rows) reads them
// without loading zod or the API's schemas (`@manjam/contract/tables`). The schemas of the
// package's other modules build on these; the package's index exports them with the rest.
import { COINS, LISTED_COINS, algorithmOf, type Algorithm } from '@manjam/protocol/coins';

/** Every union of names comes from one `as const` list (ARCHITECTURE: layering rules). */
export const ALGORITHMS = [
  'sha256',
  'scrypt',
  'ethash',
  'kadena',
  'kaspa',
  'equihash',
  'octopus',
  'filecoin',
  'randomx',
] as const;
export type AlgorithmId = (typeof ALGORITHMS)[number];

/**
 * The API's id of each algorithm the protocol validates shares for: the one place the two
 * vocabularies meet. The protocol says 'sha256d' (what is hashed); the API, the web, stored
 * settings and the fee keys say 'sha256' (stable ids the web and operators already use).
 */
export const API_ALGORITHM_ID = {
  sha256d: 'sha256',
  scrypt: 'scrypt',
  randomx: 'randomx',
  kheavyhash: 'kaspa',
} as const satisfies Record<Algorithm, AlgorithmId>;

/** Coins Manjam really mines and pays (Stratum + accounting): the protocol's coin table. */
export const POOL_COINS = COINS;
export type PoolCoin = (typeof POOL_COINS)[number];

/** The coin shown where none is chosen, or the one named is not mined: the coin table's first. */
export const DEFAULT_POOL_COIN: PoolCoin = POOL_COINS[0];

/** The algorithm a form starts on (Add Miner, Edit Worker, the setup guide): the default coin's. */
export const DEFAULT_ALGORITHM: AlgorithmId = API_ALGORITHM_ID[algorithmOf(DEFAULT_POOL_COIN)];

export function isPoolCoin(coin: string): coin is PoolCoin {
  return (POOL_COINS as readonly string[]).includes(coin);
}

/** The coin itself when Manjam mines it, else DEFAULT_POOL_COIN (e.g. an account preferring DOGE). */
export function poolCoinOr(coin: string): PoolCoin {
  return isPoolCoin(coin) ? coin : DEFAULT_POOL_COIN;
}

/** Coins an account may prefer (the seed's registration select): the mined ones, then the listed ones. */
export const ACCOUNT_COINS = [...POOL_COINS, ...LISTED_COINS] as const;
export type AccountCoin = (typeof ACCOUNT_COINS)[number];

export const DEVICE_TYPES = ['asic', 'gpu', 'cpu'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PAYOUT_SCHEMES = ['pps-plus', 'pplns', 'solo'] as const;
export type PayoutScheme = (typeof PAYOUT_SCHEMES)[number];

/** Live (not revoked, not expired) API tokens and watcher links one account may hold at once. */
export const MAX_LIVE_API_TOKENS = 20;
export const MAX_LIVE_WATCH_LINKS = 20;

/**
 * The username policy, one rule for registration and for Stratum logins (`<username>.<worker>`):
 * 3 to 32 characters, ASCII letters A-Z and a-z, digits 0-9, `_` and `-` only, unique without
 * regard to case. No other script and no lookalike characters (a Cyrillic `а` in `аlice` is
 * refused), and no dot: a dot separates the worker name in a Stratum login.
 *
 * Accounts registered before this rule with other characters keep their username and sign in
 * (by email) as before; they could already not mine by username (the Stratum login never took
 * them) and mine to their payout address instead. Public answers never show usernames, so such a
 * name cannot pass for another account anywhere the public looks.
 */
export const USERNAME_CHARS = /^[A-Za-z0-9_-]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;

/** Whether `name` is a username registration accepts (the Stratum login checks its account part with it). */
export function isValidUsername(name: string): boolean {
  return name.length >= USERNAME_MIN && name.length <= USERNAME_MAX && USERNAME_CHARS.test(name);
}

/**
 * The pool's port table: 19 algorithms, the one table every screen and service derives
 * from (the server's port list and assistant, the web's setup guide, miner forms, home,
 * algorithm pages, footer and coin colours).
 * `coin`: the coin the algorithm mines (a port is live only for a coin of POOL_COINS that has a
 * configured Stratum port); `colour`: the coin's brand colour where the web marks it, if it has
 * one; `account`: the algorithm id of ALGORITHMS a miner or worker may carry;
 * `feeAlgorithm`: the key of its fee in the server's accounting.feeBasisPoints; `published`: the
 * seed's published fee, payout interval and latency target (its home card; its guide link on the Learn
 * page), the fee and interval shown for algorithms the pool does not run yet;
 * `guide`: what the setup guide says of it (its filter tab, the software, and which device cards
 * offer it, by place: 1 is the first a card tries); `forms`: the miner forms that offer it (Add
 * Miner for the device types listed, in table order; Edit Miner at its place, null where not);
 * `page`: whether it has a page of its own in the web app (/mining/<account id>).
 */
export const PORT_TABLE = [
  {
    algorithm: 'sha256',
    name: 'SHA-256',
    port: 3333,
    coin: 'BTC',
    colour: '#f7931a',
    hardware: 'asic',
    account: 'sha256',
    feeAlgorithm: 'sha256',
    published: { feeBasisPoints: 100, payoutHours: 24, latencyMs: 45 },
    guide: {
      tab: 'sha256',
      difficulty: 'high',
      software: ['Antminer / Whatsminer / Avalon stock firmware', 'Braiins OS'],
      devices: { asic: 1 },
    },
    forms: { add: ['asic'], edit: 1 },
    page: true,
  },
  {
    algorithm: 'scrypt',
    name: 'Scrypt',
    port: 4444,
    coin: 'LTC',
    colour: '#a6a9aa',
    hardware: 'asic',
    account: 'scrypt',
    feeAlgorithm: 'scrypt',
    published: { feeBasisPoints: 100, payoutHours: 24, latencyMs: 42 },
    guide: {
      tab: 'scrypt',
      difficulty: 'high',
      software: ['Antminer L-series firmware', 'Goldshell firmware'],
      devices: { asic: 2, gpu: 3 },
    },
    forms: { add: ['asic'], edit: 2 },
    page: true,
  },
  {
    algorithm: 'scrypt-doge',
    name: 'Scrypt-DOGE',
    port: 5555,
    coin: 'DOGE',
    colour: null,
    hardware: 'asic',
    account: null,
    feeAlgorithm: 'scrypt',
    published: null,
    guide: {
      tab: 'scrypt',
      difficulty: 'high',
      software: ['Antminer L-series firmware', 'Goldshell firmware'],
      devices: {},
    },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'blake2s',
    name: 'Blake2s',
    port: 6666,
    coin: 'KDA',
    colour: '#ed098f',
    hardware: 'asic',
    account: 'kadena',
    feeAlgorithm: 'kadena',
    published: { feeBasisPoints: 100, payoutHours: 24, latencyMs: 48 },
    guide: {
      tab: 'kadena',
      difficulty: 'high',
      software: ['Goldshell firmware', 'iBeLink firmware'],
      devices: {},
    },
    forms: { add: ['asic', 'gpu'], edit: 4 },
    page: true,
  },
  {
    algorithm: 'kheavyhash',
    name: 'kHeavyHash',
    port: 7777,
    coin: 'KAS',
    colour: '#49eacb',
    hardware: 'asic',
    account: 'kaspa',
    feeAlgorithm: 'kaspa',
    published: { feeBasisPoints: 90, payoutHours: 12, latencyMs: 40 },
    guide: {
      tab: 'kaspa',
      difficulty: 'varies',
      software: ['IceRiver / Antminer KS firmware', 'BzMiner', 'lolMiner', 'SRBMiner-MULTI'],
      devices: { asic: 3, gpu: 1, cpu: 2 },
    },
    forms: { add: ['asic', 'gpu', 'cpu'], edit: 5 },
    page: true,
  },
  {
    algorithm: 'etchash',
    name: 'Etchash',
    port: 8008,
    coin: 'ETC',
    colour: null,
    hardware: 'gpu',
    account: 'ethash',
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'ethash',
      difficulty: 'medium',
      software: ['lolMiner', 'T-Rex', 'TeamRedMiner', 'GMiner'],
      devices: { gpu: 4 },
    },
    forms: { add: [], edit: 3 },
    page: false,
  },
  {
    algorithm: 'equihash',
    name: 'Equihash',
    port: 3357,
    coin: 'ZEC',
    colour: null,
    hardware: 'asic',
    account: 'equihash',
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'equihash', difficulty: 'high', software: ['Antminer Z-series firmware'], devices: {} },
    forms: { add: [], edit: 6 },
    page: false,
  },
  {
    algorithm: 'octopus',
    name: 'Octopus',
    port: 6800,
    coin: 'CFX',
    colour: null,
    hardware: 'gpu',
    account: 'octopus',
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'octopus',
      difficulty: 'medium',
      software: ['T-Rex', 'NBMiner', 'Rigel', 'GMiner'],
      devices: {},
    },
    forms: { add: [], edit: 7 },
    page: false,
  },
  {
    algorithm: 'filecoin',
    name: 'Filecoin',
    port: 7006,
    coin: 'FIL',
    colour: null,
    hardware: 'gpu',
    account: 'filecoin',
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'filecoin', difficulty: 'varies', software: ['Lotus', 'Boost'], devices: {} },
    forms: { add: [], edit: 8 },
    page: false,
  },
  {
    algorithm: 'eaglesong',
    name: 'Eaglesong',
    port: 1800,
    coin: 'CKB',
    colour: null,
    hardware: 'asic',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'eaglesong',
      difficulty: 'high',
      software: ['Antminer K7 firmware', 'Goldshell CK firmware'],
      devices: {},
    },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'progpow',
    name: 'ProgPow',
    port: 1185,
    coin: 'QUAI',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'all', difficulty: 'medium', software: ['quai-gpu-miner'], devices: {} },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'kawpow',
    name: 'KawPow',
    port: 1140,
    coin: 'RVN',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'all',
      difficulty: 'medium',
      software: ['T-Rex', 'GMiner', 'TeamRedMiner', 'kawpowminer'],
      devices: {},
    },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'randomx',
    name: 'RandomX',
    port: 1111,
    coin: 'XMR',
    colour: '#ff6600',
    hardware: 'cpu',
    account: 'randomx',
    feeAlgorithm: 'randomx',
    published: null,
    guide: { tab: 'randomx', difficulty: 'varies', software: ['XMRig'], devices: { gpu: 2, cpu: 1 } },
    forms: { add: [], edit: null },
    page: true,
  },
  {
    algorithm: 'blake3',
    name: 'Blake3',
    port: 1199,
    coin: 'ALPH',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'all',
      difficulty: 'varies',
      software: ['lolMiner', 'BzMiner', 'Rigel', 'IceRiver AL firmware'],
      devices: {},
    },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'autolykos2',
    name: 'Autolykos-v2',
    port: 8888,
    coin: 'ERG',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'all', difficulty: 'medium', software: ['lolMiner', 'T-Rex', 'TeamRedMiner'], devices: {} },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'equihash-125-4',
    name: 'Equihash-125,4',
    port: 9090,
    coin: 'FLUX',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'equihash', difficulty: 'medium', software: ['miniZ', 'lolMiner', 'GMiner'], devices: {} },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'dynexsolve',
    name: 'DynexSolve',
    port: 1120,
    coin: 'DNX',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: {
      tab: 'all',
      difficulty: 'varies',
      software: ['DynexSolve', 'OneZeroMiner', 'SRBMiner-MULTI'],
      devices: {},
    },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'fishhash',
    name: 'FishHash',
    port: 1145,
    coin: 'IRON',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'all', difficulty: 'medium', software: ['lolMiner', 'Rigel', 'BzMiner'], devices: {} },
    forms: { add: [], edit: null },
    page: false,
  },
  {
    algorithm: 'cuckaroo30',
    name: 'Cuckaroo30',
    port: 10320,
    coin: 'CTXC',
    colour: null,
    hardware: 'gpu',
    account: null,
    feeAlgorithm: null,
    published: null,
    guide: { tab: 'all', difficulty: 'medium', software: ['GMiner'], devices: {} },
    forms: { add: [], edit: null },
    page: false,
  },
] as const satisfies readonly PortTableRow[];

/** The setup guide's filter tabs, in the order it shows them: all, then each row's `guide.tab`. */
export const GUIDE_TABS = [
  'all',
  'sha256',
  'scrypt',
  'kadena',
  'kaspa',
  'randomx',
  'ethash',
  'equihash',
  'octopus',
  'filecoin',
  'eaglesong',
] as const;
export type GuideTab = (typeof GUIDE_TABS)[number];

export interface PortTableRow {
  algorithm: string;
  name: string;
  port: number;
  coin: string;
  /** The coin's brand colour (CSS hex) where the web marks a coin; null: shown in the text colour. */
  colour: string | null;
  hardware: DeviceType;
  account: AlgorithmId | null;
  feeAlgorithm: AlgorithmId | null;
  published: { feeBasisPoints: number; payoutHours: number; latencyMs: number } | null;
  guide: {
    /** The filter tab it is listed under ('all' when no tab covers it). */
    tab: GuideTab;
    difficulty: 'high' | 'medium' | 'varies';
    software: readonly string[];
    /** The device cards that offer it, each with its place there (1: the first the card tries). */
    devices: Partial<Record<DeviceType, number>>;
  };
  forms: {
    /** The device types Add Miner offers it for (each type's list in table order, its first the default). */
    add: readonly DeviceType[];
    /** Its place in Edit Miner's list; null when Edit Miner does not offer it. */
    edit: number | null;
  };
  /** A page of its own in the web app (/mining/<account id>); only a row with an account id has one. */
  page: boolean;
}
export type PortTableEntry = (typeof PORT_TABLE)[number];
export type FeeAlgorithm = NonNullable<PortTableEntry['feeAlgorithm']>;

/** Algorithms with a fee key in the server's accounting.feeBasisPoints: PORT_TABLE's feeAlgorithm values, in table order. */
export const FEE_ALGORITHMS = [
  ...new Set(PORT_TABLE.flatMap((row): FeeAlgorithm[] => (row.feeAlgorithm ? [row.feeAlgorithm] : []))),
] as [FeeAlgorithm, ...FeeAlgorithm[]];
export type PortAlgorithmName = PortTableEntry['name'];

/** The row whose `account` algorithm id is `id` (kadena -> Blake2s, kaspa -> kHeavyHash, ethash -> Etchash). */
export function portRowOfAccountAlgorithm(id: AlgorithmId): PortTableEntry | undefined {
  return PORT_TABLE.find((row) => row.account === id);
}

/** Each PORT_TABLE algorithm that miners and workers may carry, to its account id. */
type AccountIdOf = {
  [R in PortTableEntry as R['account'] extends AlgorithmId ? R['algorithm'] : never]: R['account'];
};
export type AccountPortAlgorithm = keyof AccountIdOf;

/**
 * The account algorithm id of a PORT_TABLE algorithm (blake2s -> kadena, kheavyhash -> kaspa,
 * etchash -> ethash): screens name an algorithm by what is hashed, the table by its stable id.
 */
export function accountAlgorithmOf<A extends AccountPortAlgorithm>(algorithm: A): AccountIdOf[A] {
  const account = PORT_TABLE.find((row) => row.algorithm === algorithm)?.account;
  if (!account) throw new RangeError(`no port table row gives ${algorithm} an account id`);
  // The row found is the one AccountIdOf reads A's id from.
  return account as AccountIdOf[A];
}

/** The row of the algorithm a pool coin is mined with (BTC -> SHA-256, LTC -> Scrypt). */
export function portRowOfPoolCoin(coin: PoolCoin): Extract<PortTableEntry, { coin: PoolCoin }> {
  const row = PORT_TABLE.find(
    (entry): entry is Extract<PortTableEntry, { coin: PoolCoin }> => entry.coin === coin,
  );
  if (!row) throw new RangeError(`no port table row mines ${coin}`);
  return row;
}
export type PortAlgorithm = (typeof PORT_TABLE)[number]['algorithm'];

/** A coin's brand colour (its port table row's `colour`), or undefined for a coin without one. */
export function coinColourOf(coin: string): string | undefined {
  const rows: readonly PortTableRow[] = PORT_TABLE;
  return rows.find((row) => row.coin === coin)?.colour ?? undefined;
}

/** The account id of each algorithm with a page of its own (/mining/<id>), in table order. */
export type AlgorithmPageId = NonNullable<Extract<PortTableEntry, { page: true }>['account']>;
export const ALGORITHM_PAGE_IDS: readonly AlgorithmPageId[] = PORT_TABLE.flatMap((row) =>
  row.page && row.account ? [row.account] : [],
);

/** A list of account ids the web offers, never empty: its first is the default. */
export type OfferedAlgorithms = readonly [AlgorithmId, ...AlgorithmId[]];

function offered(
  rows: readonly { account: AlgorithmId | null; place: number }[],
  what: string,
): OfferedAlgorithms {
  const [first, ...rest] = [...rows]
    .sort((a, b) => a.place - b.place)
    .flatMap((row) => (row.account ? [row.account] : []));
  if (!first) throw new RangeError(`no port table row is offered ${what}`);
  return [first, ...rest];
}

/** The account ids a device card of the setup guide offers, by their place on it (rows' `guide.devices`). */
export function guideAlgorithmsOf(device: DeviceType): OfferedAlgorithms {
  const rows: readonly PortTableRow[] = PORT_TABLE;
  return offered(
    rows.flatMap((row) => {
      const place = row.guide.devices[device];
      return place === undefined ? [] : [{ account: row.account, place }];
    }),
    `on the guide's ${device} card`,
  );
}

/** The account ids Add Miner offers for a device type, in table order (rows' `forms.add`). */
export function addMinerAlgorithmsOf(device: DeviceType): OfferedAlgorithms {
  const rows: readonly PortTableRow[] = PORT_TABLE;
  return offered(
    rows.flatMap((row, place) => (row.forms.add.includes(device) ? [{ account: row.account, place }] : [])),
    `by Add Miner for ${device}`,
  );
}

/** The account ids Edit Miner offers, by their place (rows' `forms.edit`). */
export function editMinerAlgorithms(): OfferedAlgorithms {
  const rows: readonly PortTableRow[] = PORT_TABLE;
  return offered(
    rows.flatMap((row) => (row.forms.edit === null ? [] : [{ account: row.account, place: row.forms.edit }])),
    'by Edit Miner',
  );
}

/** The operator alert kinds accounting raises (server: db/repositories/operator-alerts.ts checks it is the same list). */
export const OPERATOR_ALERT_KINDS = [
  'payout-stuck',
  'payout-missing',
  'wallet-insufficient',
  'accounting-errors',
  'block-returned',
] as const;
export type OperatorAlertKind = (typeof OPERATOR_ALERT_KINDS)[number];

export const BAN_SCOPES = ['connection', 'ip'] as const;
