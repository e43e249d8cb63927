import { portRowOfPoolCoin } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { PayoutThresholdConfig } from '../../config/payout-thresholds.js';
import type { CoinId, PayoutScheme } from '../../config/constants.js';
import { ALGORITHM_TABLE, type SeedAlgorithm } from './algorithms.js';

/** What the assistant says about the pool: real host, real ports, fees and payout interval. */
export interface PoolPort {
  algorithm: SeedAlgorithm;
  port: number;
  /** True when Manjam runs a Stratum port for it (configured); else the seed's port, not live yet. */
  live: boolean;
  coin: CoinId | null;
  /** The payout scheme of a live port (each port has its own); null when not live. */
  scheme: PayoutScheme | null;
}

export interface PoolInfo {
  host: string;
  ports: PoolPort[];
  /** Fee in basis points per algorithm, where configured. */
  feeBasisPoints: Partial<Record<SeedAlgorithm, number>>;
  /** The payout interval of the pool's own runs (live coins). */
  payoutIntervalHours: number;
  /** Per algorithm: the pool's interval where it is live, else the seed's published one (Kaspa: 12 h). */
  payoutHours: Partial<Record<SeedAlgorithm, number>>;
  /** Each live coin's payout threshold range in coin units (config.accounting.payoutThresholds). */
  payoutThresholds: Partial<Record<CoinId, PayoutThresholdConfig>>;
}

export function poolInfoFromConfig(config: Pick<Config, 'publicHost' | 'stratum' | 'accounting'>): PoolInfo {
  const ports: PoolPort[] = [];
  for (const entry of ALGORITHM_TABLE) {
    const configured = config.stratum.ports.filter((port) => algorithmOfCoin(port.coin) === entry.name);
    if (configured.length === 0)
      ports.push({ algorithm: entry.name, port: entry.seedPort, live: false, coin: null, scheme: null });
    for (const port of configured)
      ports.push({
        algorithm: entry.name,
        port: port.port,
        live: true,
        coin: port.coin,
        scheme: port.scheme,
      });
  }
  const feeBasisPoints: Partial<Record<SeedAlgorithm, number>> = {};
  for (const entry of ALGORITHM_TABLE) {
    const fee = entry.feeId ? config.accounting.feeBasisPoints[entry.feeId] : undefined;
    if (fee !== undefined) feeBasisPoints[entry.name] = fee;
  }
  const payoutHours: Partial<Record<SeedAlgorithm, number>> = {};
  for (const entry of ALGORITHM_TABLE) {
    const live = ports.some((port) => port.live && port.algorithm === entry.name);
    const hours = live ? config.accounting.payoutIntervalHours : entry.publishedPayoutHours;
    if (hours !== undefined) payoutHours[entry.name] = hours;
  }
  const payoutThresholds: Partial<Record<CoinId, PayoutThresholdConfig>> = {};
  for (const port of ports)
    if (port.live && port.coin) payoutThresholds[port.coin] = config.accounting.payoutThresholds[port.coin];
  return {
    host: config.publicHost,
    ports,
    payoutThresholds,
    feeBasisPoints,
    payoutIntervalHours: config.accounting.payoutIntervalHours,
    payoutHours,
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
  return portRowOfPoolCoin(coin).name;
}
