// The 19 algorithms of the contract's PORT_TABLE, with what a miner needs to connect.
// Live ports and the "live" mark come from GET /api/pool/ports; this file holds only the guidance.
// `id('kheavyhash')`: the account id of a PORT_TABLE algorithm; the guide names algorithms by what is hashed.
import {
  accountAlgorithmOf as id,
  PORT_TABLE,
  portRowOfAccountAlgorithm,
  type PortTableEntry,
} from '@manjam/contract';
import type { Algorithm, MinerType, PoolPort } from '../api-types';

/** The guide's filter tabs: all, then by algorithm (each an account id of the port table's row). */
export const GUIDE_FILTERS = [
  'all',
  id('sha256'),
  id('scrypt'),
  id('blake2s'),
  id('kheavyhash'),
  id('randomx'),
  id('etchash'),
  id('equihash'),
  id('octopus'),
  id('filecoin'),
  'eaglesong',
] as const;
export type GuideFilter = (typeof GUIDE_FILTERS)[number];

export type GuideDifficulty = 'high' | 'medium' | 'varies';

export interface GuideAlgorithm {
  /** Stable key, also the i18n key under setupGuide.algo. */
  key: string;
  /** Display name exactly as in the seed's port table. */
  name: string;
  /** Filter tab it belongs to ('all' only when no tab covers it). */
  family: GuideFilter;
  /** The seed's fallback port if the server does not list this algorithm. */
  seedPort: number;
  /** The hardware the port table gives the algorithm to (RandomX: cpu, mined with XMRig). */
  hardware: PortTableEntry['hardware'];
  /** The account algorithm id of its row, when miners may carry it (kheavyhash: kaspa). */
  account: PortTableEntry['account'];
  software: string[];
  difficulty: GuideDifficulty;
}

/** What the guide adds to each row of the contract's PORT_TABLE (names and ports come from there). */
const GUIDANCE: Record<
  PortTableEntry['algorithm'],
  Pick<GuideAlgorithm, 'family' | 'difficulty' | 'software'>
> = {
  sha256: {
    family: 'sha256',
    difficulty: 'high',
    software: ['Antminer / Whatsminer / Avalon stock firmware', 'Braiins OS'],
  },
  scrypt: {
    family: 'scrypt',
    difficulty: 'high',
    software: ['Antminer L-series firmware', 'Goldshell firmware'],
  },
  'scrypt-doge': {
    family: 'scrypt',
    difficulty: 'high',
    software: ['Antminer L-series firmware', 'Goldshell firmware'],
  },
  blake2s: { family: 'kadena', difficulty: 'high', software: ['Goldshell firmware', 'iBeLink firmware'] },
  kheavyhash: {
    family: id('kheavyhash'),
    difficulty: 'varies',
    software: ['IceRiver / Antminer KS firmware', 'BzMiner', 'lolMiner', 'SRBMiner-MULTI'],
  },
  etchash: {
    family: 'ethash',
    difficulty: 'medium',
    software: ['lolMiner', 'T-Rex', 'TeamRedMiner', 'GMiner'],
  },
  equihash: { family: 'equihash', difficulty: 'high', software: ['Antminer Z-series firmware'] },
  octopus: { family: 'octopus', difficulty: 'medium', software: ['T-Rex', 'NBMiner', 'Rigel', 'GMiner'] },
  filecoin: { family: 'filecoin', difficulty: 'varies', software: ['Lotus', 'Boost'] },
  eaglesong: {
    family: 'eaglesong',
    difficulty: 'high',
    software: ['Antminer K7 firmware', 'Goldshell CK firmware'],
  },
  progpow: { family: 'all', difficulty: 'medium', software: ['quai-gpu-miner'] },
  kawpow: {
    family: 'all',
    difficulty: 'medium',
    software: ['T-Rex', 'GMiner', 'TeamRedMiner', 'kawpowminer'],
  },
  randomx: { family: 'randomx', difficulty: 'varies', software: ['XMRig'] },
  blake3: {
    family: 'all',
    difficulty: 'varies',
    software: ['lolMiner', 'BzMiner', 'Rigel', 'IceRiver AL firmware'],
  },
  autolykos2: { family: 'all', difficulty: 'medium', software: ['lolMiner', 'T-Rex', 'TeamRedMiner'] },
  'equihash-125-4': { family: 'equihash', difficulty: 'medium', software: ['miniZ', 'lolMiner', 'GMiner'] },
  dynexsolve: {
    family: 'all',
    difficulty: 'varies',
    software: ['DynexSolve', 'OneZeroMiner', 'SRBMiner-MULTI'],
  },
  fishhash: { family: 'all', difficulty: 'medium', software: ['lolMiner', 'Rigel', 'BzMiner'] },
  cuckaroo30: { family: 'all', difficulty: 'medium', software: ['GMiner'] },
};

export const GUIDE_ALGORITHMS: readonly GuideAlgorithm[] = PORT_TABLE.map((row) => ({
  key: normalizeAlgorithmName(row.name),
  name: row.name,
  seedPort: row.port,
  hardware: row.hardware,
  account: row.account,
  ...GUIDANCE[row.algorithm],
}));

/** Lowercase letters and digits only: 'Equihash-125,4' -> 'equihash1254'. */
export function normalizeAlgorithmName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The server's port entry for a guide algorithm, matched by id or by display name. */
export function findPort(ports: readonly PoolPort[], algo: GuideAlgorithm): PoolPort | undefined {
  return ports.find(
    (p) => normalizeAlgorithmName(p.algorithm) === algo.key || normalizeAlgorithmName(p.name) === algo.key,
  );
}

export function filterAlgorithms(filter: GuideFilter): readonly GuideAlgorithm[] {
  return filter === 'all' ? GUIDE_ALGORITHMS : GUIDE_ALGORITHMS.filter((a) => a.family === filter);
}

/** Guide entry for an account algorithm id (kadena -> Blake2s, kaspa -> kHeavyHash, ethash -> Etchash). */
export function guideKeyForAlgorithm(algorithm: Algorithm): string {
  const row = portRowOfAccountAlgorithm(algorithm);
  return row ? normalizeAlgorithmName(row.name) : algorithm;
}

/**
 * Each device card's algorithms, in the order the guide offers them. The seed gave GPU Etchash,
 * which the pool does not mine; the guide opens on the first of these the pool mines live
 * (GPU: Kaspa, which lolMiner and BzMiner mine on graphics cards, then RandomX (XMRig's CUDA and
 * OpenCL back ends), then Scrypt, long an ASIC algorithm; ASIC: SHA-256, Scrypt, then Kaspa's KS
 * machines).
 */
export const DEVICE_ALGORITHMS: Record<MinerType, readonly [Algorithm, ...Algorithm[]]> = {
  asic: [id('sha256'), id('scrypt'), id('kheavyhash')],
  gpu: [id('kheavyhash'), id('randomx'), id('scrypt'), id('etchash')],
  // The seed's CPU card offers Kaspa; RandomX comes first, since a CPU mines kHeavyHash at a few
  // kH/s to MH/s only (the guide says so on Kaspa's steps).
  cpu: [id('randomx'), id('kheavyhash')],
};

/** A device card's first algorithm: what a new miner of that type is saved with. */
export const DEFAULT_ALGORITHM_BY_TYPE: Record<MinerType, Algorithm> = {
  asic: DEVICE_ALGORITHMS.asic[0],
  gpu: DEVICE_ALGORITHMS.gpu[0],
  cpu: DEVICE_ALGORITHMS.cpu[0],
};

/** The guide entry of an account algorithm id. */
export function guideAlgorithm(algorithm: Algorithm): GuideAlgorithm | undefined {
  const key = guideKeyForAlgorithm(algorithm);
  return GUIDE_ALGORITHMS.find((a) => a.key === key);
}

/**
 * The first of `candidates` the pool mines live (GET /api/pool/ports); the first candidate while
 * the ports are not known yet or none of them is live.
 */
export function firstLive(
  candidates: readonly GuideAlgorithm[],
  ports: readonly PoolPort[] | undefined,
): GuideAlgorithm | undefined {
  const live = ports ? candidates.find((a) => findPort(ports, a)?.live === true) : undefined;
  return live ?? candidates[0];
}

/**
 * The passwords the guide recommends, defined once for its texts and its copyable commands.
 * A CPU (RandomX) keeps the port's own start, which vardiff moves to the CPU's speed: a fixed
 * d= in hashes would leave a slow CPU minutes without a share (d=15000 at 33 H/s: 7.5 min per
 * share). A CPU or GPU on another port asks for a low start (d=0.01); the pool keeps it within the
 * port's bounds.
 */
export const CPU_START_PASSWORD = 'x';
export const LOW_START_PASSWORD = 'x,d=0.01';
export const PLAIN_PASSWORD = 'x';

/** What the guide puts in the password field for an algorithm. */
export function recommendedPassword(algo: GuideAlgorithm): string {
  return algo.hardware === 'cpu' ? CPU_START_PASSWORD : PLAIN_PASSWORD;
}

export function filterForAlgorithm(algorithm: Algorithm): GuideFilter {
  const key = guideKeyForAlgorithm(algorithm);
  const found = GUIDE_ALGORITHMS.find((a) => a.key === key);
  return found ? found.family : 'all';
}
