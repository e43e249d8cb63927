import type { Config } from '../config/index.js';

/**
 * The seed's pool-port table: every algorithm it lists keeps its port in the setup guides, but
 * only algorithms Manjam validates (SHA-256d, Scrypt) are live, and only when a port for that
 * coin is configured. No port accepts shares it cannot check.
 */
export interface PortTableEntry {
  name: string;
  port: number;
  /** The coin a live port mines; undefined for algorithms Manjam cannot validate yet. */
  coin: 'BTC' | 'LTC' | undefined;
}

export const SEED_PORTS: readonly PortTableEntry[] = [
  { name: 'SHA-256', port: 3333, coin: 'BTC' },
  { name: 'Scrypt', port: 4444, coin: 'LTC' },
  { name: 'Scrypt-DOGE', port: 5555, coin: undefined },
  { name: 'Blake2s', port: 6666, coin: undefined },
  { name: 'kHeavyHash', port: 7777, coin: undefined },
  { name: 'Etchash', port: 8008, coin: undefined },
  { name: 'Equihash', port: 3357, coin: undefined },
  { name: 'Octopus', port: 6800, coin: undefined },
  { name: 'Filecoin', port: 7006, coin: undefined },
  { name: 'Eaglesong', port: 1800, coin: undefined },
  { name: 'ProgPow', port: 1185, coin: undefined },
  { name: 'KawPow', port: 1140, coin: undefined },
  { name: 'RandomX', port: 1111, coin: undefined },
  { name: 'Blake3', port: 1199, coin: undefined },
  { name: 'Autolykos-v2', port: 8888, coin: undefined },
  { name: 'Equihash-125,4', port: 9090, coin: undefined },
  { name: 'DynexSolve', port: 1120, coin: undefined },
  { name: 'FishHash', port: 1145, coin: undefined },
  { name: 'Cuckaroo30', port: 10320, coin: undefined },
];

export interface PortTableRow {
  name: string;
  port: number;
  live: boolean;
}

/** The seed's table as the default configuration serves it (SHA-256 on 3333, Scrypt on 4444). */
export const PORT_TABLE: readonly PortTableRow[] = SEED_PORTS.map((row) => ({
  name: row.name,
  port: row.port,
  live: row.coin !== undefined,
}));

/** The seed's 19 rows; a row is live when a configured Stratum port mines its coin. */
export function portTable(config: Pick<Config, 'stratum'>): PortTableRow[] {
  return SEED_PORTS.map((row) => {
    const configured = row.coin === undefined ? undefined : config.stratum.ports.find((p) => p.coin === row.coin);
    return { name: row.name, port: configured?.port ?? row.port, live: configured !== undefined };
  });
}
