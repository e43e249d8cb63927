// The 19 algorithms of the seed's pool-port table, with what a miner needs to connect.
// Ports and the "live" mark come from GET /api/pool/ports; this file holds only the guidance.
import type { Algorithm, MinerType, PoolPort } from '../api-types';

export const GUIDE_FILTERS = [
  'all',
  'sha256',
  'scrypt',
  'kadena',
  'kaspa',
  'ethash',
  'equihash',
  'octopus',
  'filecoin',
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
  software: string[];
  difficulty: GuideDifficulty;
}

export const GUIDE_ALGORITHMS: readonly GuideAlgorithm[] = [
  { key: 'sha256', name: 'SHA-256', family: 'sha256', seedPort: 3333, difficulty: 'high', software: ['Antminer / Whatsminer / Avalon stock firmware', 'Braiins OS'] },
  { key: 'scrypt', name: 'Scrypt', family: 'scrypt', seedPort: 4444, difficulty: 'high', software: ['Antminer L-series firmware', 'Goldshell firmware'] },
  { key: 'scryptdoge', name: 'Scrypt-DOGE', family: 'scrypt', seedPort: 5555, difficulty: 'high', software: ['Antminer L-series firmware', 'Goldshell firmware'] },
  { key: 'blake2s', name: 'Blake2s', family: 'kadena', seedPort: 6666, difficulty: 'high', software: ['Goldshell firmware', 'iBeLink firmware'] },
  { key: 'kheavyhash', name: 'kHeavyHash', family: 'kaspa', seedPort: 7777, difficulty: 'varies', software: ['IceRiver / Antminer KS firmware', 'BzMiner', 'lolMiner', 'SRBMiner-MULTI'] },
  { key: 'etchash', name: 'Etchash', family: 'ethash', seedPort: 8008, difficulty: 'medium', software: ['lolMiner', 'T-Rex', 'TeamRedMiner', 'GMiner'] },
  { key: 'equihash', name: 'Equihash', family: 'equihash', seedPort: 3357, difficulty: 'high', software: ['Antminer Z-series firmware'] },
  { key: 'octopus', name: 'Octopus', family: 'octopus', seedPort: 6800, difficulty: 'medium', software: ['T-Rex', 'NBMiner', 'Rigel', 'GMiner'] },
  { key: 'filecoin', name: 'Filecoin', family: 'filecoin', seedPort: 7006, difficulty: 'varies', software: ['Lotus', 'Boost'] },
  { key: 'eaglesong', name: 'Eaglesong', family: 'eaglesong', seedPort: 1800, difficulty: 'high', software: ['Antminer K7 firmware', 'Goldshell CK firmware'] },
  { key: 'progpow', name: 'ProgPow', family: 'all', seedPort: 1185, difficulty: 'medium', software: ['quai-gpu-miner'] },
  { key: 'kawpow', name: 'KawPow', family: 'all', seedPort: 1140, difficulty: 'medium', software: ['T-Rex', 'GMiner', 'TeamRedMiner', 'kawpowminer'] },
  { key: 'randomx', name: 'RandomX', family: 'all', seedPort: 1111, difficulty: 'varies', software: ['XMRig'] },
  { key: 'blake3', name: 'Blake3', family: 'all', seedPort: 1199, difficulty: 'varies', software: ['lolMiner', 'BzMiner', 'Rigel', 'IceRiver AL firmware'] },
  { key: 'autolykosv2', name: 'Autolykos-v2', family: 'all', seedPort: 8888, difficulty: 'medium', software: ['lolMiner', 'T-Rex', 'TeamRedMiner'] },
  { key: 'equihash1254', name: 'Equihash-125,4', family: 'equihash', seedPort: 9090, difficulty: 'medium', software: ['miniZ', 'lolMiner', 'GMiner'] },
  { key: 'dynexsolve', name: 'DynexSolve', family: 'all', seedPort: 1120, difficulty: 'varies', software: ['DynexSolve', 'OneZeroMiner', 'SRBMiner-MULTI'] },
  { key: 'fishhash', name: 'FishHash', family: 'all', seedPort: 1145, difficulty: 'medium', software: ['lolMiner', 'Rigel', 'BzMiner'] },
  { key: 'cuckaroo30', name: 'Cuckaroo30', family: 'all', seedPort: 10320, difficulty: 'medium', software: ['GMiner'] },
];

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
  const map: Record<Algorithm, string> = {
    sha256: 'sha256',
    scrypt: 'scrypt',
    ethash: 'etchash',
    kadena: 'blake2s',
    kaspa: 'kheavyhash',
    equihash: 'equihash',
    octopus: 'octopus',
    filecoin: 'filecoin',
    randomx: 'randomx',
  };
  return map[algorithm];
}

/** The seed's device-card rule: asic -> sha256, gpu -> ethash, cpu -> randomx. */
export const DEFAULT_ALGORITHM_BY_TYPE: Record<MinerType, Algorithm> = {
  asic: 'sha256',
  gpu: 'ethash',
  cpu: 'randomx',
};

export function filterForAlgorithm(algorithm: Algorithm): GuideFilter {
  const key = guideKeyForAlgorithm(algorithm);
  const found = GUIDE_ALGORITHMS.find((a) => a.key === key);
  return found ? found.family : 'all';
}
