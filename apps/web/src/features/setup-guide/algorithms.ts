// The 19 algorithms of the contract's PORT_TABLE, with what a miner needs to connect.
// Live ports and the "live" mark come from GET /api/pool/ports; this file holds only the guidance.
import {
  GUIDE_TABS,
  guideAlgorithmsOf,
  PORT_TABLE,
  portRowOfAccountAlgorithm,
  type GuideTab,
  type PortTableEntry,
} from '@manjam/contract';
import type { Algorithm, MinerType, PoolPort } from '../api-types';

/** The guide's filter tabs: all, then by algorithm (the contract's GUIDE_TABS; rows name theirs in `guide.tab`). */
export const GUIDE_FILTERS = GUIDE_TABS;
export type GuideFilter = GuideTab;

export type GuideDifficulty = PortTableEntry['guide']['difficulty'];

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
  /** The account algorithm id of its row, when miners may carry it (blake2s: kadena). */
  account: PortTableEntry['account'];
  software: readonly string[];
  difficulty: GuideDifficulty;
}

/** Every row of the contract's PORT_TABLE as the guide shows it (names, ports and guidance come from there). */
export const GUIDE_ALGORITHMS: readonly GuideAlgorithm[] = PORT_TABLE.map((row) => ({
  key: normalizeAlgorithmName(row.name),
  name: row.name,
  seedPort: row.port,
  hardware: row.hardware,
  account: row.account,
  family: row.guide.tab,
  difficulty: row.guide.difficulty,
  software: row.guide.software,
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
 * Each device card's algorithms, in the order the guide offers them (the rows' `guide.devices`);
 * the guide opens on the first of these the pool mines live.
 */
export const DEVICE_ALGORITHMS: Record<MinerType, readonly [Algorithm, ...Algorithm[]]> = {
  asic: guideAlgorithmsOf('asic'),
  gpu: guideAlgorithmsOf('gpu'),
  cpu: guideAlgorithmsOf('cpu'),
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
