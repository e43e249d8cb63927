import type { Config } from '../../config/index.js';
import type { CoinId } from '../../config/constants.js';
import { ALGORITHM_TABLE, type SeedAlgorithm } from './algorithms.js';

/** What the assistant says about the pool: real host, real ports, fees and payout interval. */
export interface PoolPort {
  algorithm: SeedAlgorithm;
  port: number;
  /** True when Manjam runs a Stratum port for it (configured); else the seed's port, not live yet. */
  live: boolean;
  coin: CoinId | null;
}

export interface PoolInfo {
  host: string;
  ports: PoolPort[];
  /** Fee in basis points per algorithm, where configured. */
  feeBasisPoints: Partial<Record<SeedAlgorithm, number>>;
  payoutIntervalHours: number;
  defaultScheme: string;
}

const ALGORITHM_OF_COIN: Record<CoinId, SeedAlgorithm> = { BTC: 'SHA-256', LTC: 'Scrypt' };

export function poolInfoFromConfig(config: Pick<Config, 'publicHost' | 'stratum' | 'accounting'>): PoolInfo {
  const ports: PoolPort[] = [];
  for (const entry of ALGORITHM_TABLE) {
    const configured = config.stratum.ports.filter((port) => ALGORITHM_OF_COIN[port.coin] === entry.name);
    if (configured.length === 0) ports.push({ algorithm: entry.name, port: entry.seedPort, live: false, coin: null });
    for (const port of configured) ports.push({ algorithm: entry.name, port: port.port, live: true, coin: port.coin });
  }
  const feeBasisPoints: Partial<Record<SeedAlgorithm, number>> = {};
  for (const entry of ALGORITHM_TABLE) {
    const fee = entry.feeId ? config.accounting.feeBasisPoints[entry.feeId] : undefined;
    if (fee !== undefined) feeBasisPoints[entry.name] = fee;
  }
  return {
    host: config.publicHost,
    ports,
    feeBasisPoints,
    payoutIntervalHours: config.accounting.payoutIntervalHours,
    defaultScheme: config.stratum.ports[0]?.scheme ?? 'pps-plus',
  };
}

export function portsOf(pool: PoolInfo, algorithm: SeedAlgorithm): PoolPort[] {
  return pool.ports.filter((port) => port.algorithm === algorithm);
}

export function livePorts(pool: PoolInfo): PoolPort[] {
  return pool.ports.filter((port) => port.live);
}

export function stratumUrl(pool: PoolInfo, port: PoolPort): string {
  return `stratum+tcp://${pool.host}:${port.port}`;
}

export function algorithmOfCoin(coin: CoinId): SeedAlgorithm {
  return ALGORITHM_OF_COIN[coin];
}
