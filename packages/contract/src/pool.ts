import { z } from 'zod';
import {
  ALGORITHMS,
  isoTimeSchema,
  moneySchema,
  pageQuerySchema,
  pagedSchema,
  POOL_COINS,
  type AlgorithmId,
  type DeviceType,
  type PoolCoin,
} from './common.js';
import { asOfSchema } from './dashboard.js';
import { MESSAGES } from './messages.js';
import { NETWORKS } from './networks.js';

export const BLOCK_STATUSES = ['pending', 'confirmed', 'orphaned'] as const;
export const LOOKUP_STATUSES = ['active', 'inactive'] as const;
export const MINER_SOURCES = ['pool', 'hive'] as const;

/**
 * The pool's port table: 19 algorithms, the one table every screen and service derives
 * from (the server's port list and assistant, the web's setup guide, miner forms, home,
 * algorithm pages, footer and coin colours).
 * `coin`: the coin the algorithm mines (a port is live only for a coin of POOL_COINS that has a
 * configured Stratum port); `colour`: the coin's brand colour where the web marks it, if it has
 * one; `account`: the algorithm id of ALGORITHMS a miner or worker may carry;
 * `feeAlgorithm`: the key of its fee in the server's accounting.feeBasisPoints; `published`: the
 * seed's published fee and payout interval, shown for algorithms the pool does not run yet;
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
    published: { feeBasisPoints: 100, payoutHours: 24 },
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
    published: { feeBasisPoints: 100, payoutHours: 24 },
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
    published: { feeBasisPoints: 100, payoutHours: 24 },
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
    published: { feeBasisPoints: 90, payoutHours: 12 },
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
  published: { feeBasisPoints: number; payoutHours: number } | null;
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

export const poolAlgorithmStatsSchema = z.object({
  algorithm: z.enum(ALGORITHMS),
  coin: z.enum(POOL_COINS),
  /** The coin's network: which payout addresses the pool accepts (networks.ts addressStarts). */
  network: z.enum(NETWORKS),
  live: z.boolean(),
  port: z.number().int(),
  tls: z.boolean(),
  hashrate: z.number(),
  miners: z.number().int(),
  workers: z.number().int(),
  networkHeight: z.number().int().nullable(),
  /** In the pool's Stratum unit of the algorithm (networks.ts hashesPerDifficulty). */
  networkDifficulty: z.number().nullable(),
  /** Percent, e.g. 1 for 1.0 %. */
  fee: z.number(),
  /** Hours. */
  payoutInterval: z.number(),
  scheme: z.string(),
  blocksFound: z.number().int(),
});
export const poolStatsSchema = z.object({
  algorithms: z.array(poolAlgorithmStatsSchema),
  host: z.string(),
  asOf: asOfSchema,
});
export type PoolStats = z.infer<typeof poolStatsSchema>;

export const poolPortsSchema = z.object({
  host: z.string(),
  /** How every port sets and judges a miner's share difficulty (the same rule for each family). */
  shareDifficulty: z.object({
    /**
     * Vardiff, a password's `d=` and a miner's suggested difficulty never go above the network
     * difficulty of the work sent (per coin, per template), nor under the port's minimum.
     */
    capsAtNetworkDifficulty: z.literal(true),
    /**
     * A share whose hash meets the network target is submitted as a block first, whatever its
     * share target, and credited at the share difficulty.
     */
    blockFirst: z.literal(true),
  }),
  ports: z.array(
    z.object({
      algorithm: z.string(),
      name: z.string(),
      port: z.number().int(),
      live: z.boolean(),
      /** 'v2' on a Stratum V2 port (listed after the table's rows); absent means Stratum V1. */
      protocol: z.enum(['v1', 'v2']).optional(),
      /** A V2 port's authority public key (base58check), once the pool knows it. */
      authorityKey: z.string().optional(),
    }),
  ),
});
export type PoolPorts = z.infer<typeof poolPortsSchema>;

export const blockSchema = z.object({
  height: z.number().int(),
  hash: z.string(),
  coin: z.enum(POOL_COINS),
  status: z.enum(BLOCK_STATUSES),
  confirmations: z.number().int(),
  reward: moneySchema,
  /** Shortened finder's payout address (first 6 and last 4 characters); empty when it has none. Never a username. */
  finder: z.string(),
  foundAt: isoTimeSchema,
  effort: z.number().nullable(),
});
export type Block = z.infer<typeof blockSchema>;
export const blockQuerySchema = pageQuerySchema.extend({
  coin: z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }).optional(),
});
export const blockPageSchema = pagedSchema(blockSchema);
export type BlockPage = z.infer<typeof blockPageSchema>;

export const gpuSchema = z.object({
  name: z.string(),
  hashrate: z.number(),
  temperature: z.number().nullable(),
});

export const lookupMinerSchema = z.object({
  /** Opaque and stable (never an internal sequential id). */
  id: z.string(),
  /** The worker name of the Stratum login; a signed-in owner searching their own workers sees their private name. */
  name: z.string(),
  algorithm: z.string(),
  status: z.enum(LOOKUP_STATUSES),
  hashrate: z.number(),
  /** `rejected` counts every rejected share, stale ones included (the worker page's Rejects); `stale` is the part of it that was stale. */
  shares: z.object({ accepted: z.number().int(), rejected: z.number().int(), stale: z.number().int() }),
  earnings: z.object({ daily: moneySchema, weekly: moneySchema, monthly: moneySchema }),
  coin: z.string().nullable(),
  lastSeen: isoTimeSchema.nullable(),
  source: z.enum(MINER_SOURCES),
  gpus: z.array(gpuSchema).optional(),
});
export type LookupMiner = z.infer<typeof lookupMinerSchema>;

export const lookupParamsSchema = z.object({
  address: z.string().trim().min(1, MESSAGES.searchRequired).max(120, MESSAGES.textTooLong),
});
export const minerLookupSchema = z.object({ address: z.string(), miners: z.array(lookupMinerSchema) });
export type MinerLookup = z.infer<typeof minerLookupSchema>;

export const searchQuerySchema = z.object({
  q: z
    .string({ error: MESSAGES.searchRequired })
    .trim()
    .min(1, MESSAGES.searchRequired)
    .max(120, MESSAGES.textTooLong),
});
export const searchResponseSchema = z.object({ results: z.array(minerLookupSchema) });
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/**
 * How the pool hears of a coin's new blocks now, fastest first: the node's blocknotify datagrams,
 * monerod's ZMQ, a GBT longpoll the node holds, polling the best block, or only the periodic
 * template refresh (a node set up without any of them).
 */
export const NEW_TIP_SOURCES = ['blocknotify', 'zmq', 'longpoll', 'poll', 'refresh'] as const;
export type NewTipSource = (typeof NEW_TIP_SOURCES)[number];

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    ok: z.boolean(),
    kind: z.string(),
    error: z.string().optional(),
    /** The embedded database's own memory (PGlite's thread heap and WebAssembly memory), bytes. */
    memory: z
      .object({ heapUsedBytes: z.number(), heapTotalBytes: z.number(), wasmBytes: z.number() })
      .optional(),
  }),
  chains: z.array(
    z.object({
      coin: z.string(),
      ok: z.boolean(),
      height: z.number().int().nullable(),
      error: z.string().optional(),
      /** Set while the coin's work is stopped: since when no node has answered past its limit. */
      downSince: z.string().optional(),
      newTipsBy: z.enum(NEW_TIP_SOURCES).optional(),
      /**
       * On a process that runs no node (an api run apart): when a Stratum process last moved to a
       * new tip of this coin, as recorded in the database (the height is that tip's).
       */
      tipAt: z.string().optional(),
    }),
  ),
  /** Open operator alerts: a payout run stuck, a wallet that cannot fund a run, accounting failing. */
  alerts: z.array(
    z.object({ kind: z.string(), coin: z.string().nullable(), message: z.string(), since: z.string() }),
  ),
  /**
   * This process's Stratum listeners, when it runs them (absent on an API process run apart):
   * open connections (V1 and V2), of them Stratum V2 connections and their mining channels, and
   * accepted shares not yet stored.
   */
  stratum: z
    .object({
      connections: z.number().int(),
      v2: z.object({ connections: z.number().int(), channels: z.number().int() }),
      sharesUnstored: z.number().int(),
    })
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
