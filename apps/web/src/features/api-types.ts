// Local mirror of the agreed HTTP API (/work/notes/api-contract.md) for the data screens.
// Swap these for the zod-inferred types of `@manjam/contract` once that package exports them.

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
export type Algorithm = (typeof ALGORITHMS)[number];

export const MINER_TYPES = ['asic', 'gpu', 'cpu'] as const;
export type MinerType = (typeof MINER_TYPES)[number];

export const COINS = ['BTC', 'LTC', 'DOGE', 'KDA', 'KAS'] as const;
export type Coin = (typeof COINS)[number];

export interface Stat {
  value: number | string;
  change: string;
}

export interface DashboardResponse {
  hashrate: Stat;
  activeMiners: Stat;
  unpaidBalance: Stat;
  dailyEarnings: Stat;
  coin: Coin;
}

export interface HashratePoint {
  time: string;
  value: number;
}

export interface HashrateResponse {
  points: HashratePoint[];
  unit: 'H/s';
}

export type MinerStatus = 'online' | 'offline' | 'warning';

export interface Miner {
  id: string;
  name: string;
  type: MinerType;
  algorithm: Algorithm;
  workerName: string;
  status: MinerStatus;
  hashrate: number;
  workers: number;
  lastSeen: string | null;
}

export interface MinersResponse {
  miners: Miner[];
}

export interface MinerInput {
  name: string;
  type: MinerType;
  algorithm: Algorithm;
  workerName: string;
}

export interface Worker {
  id: string;
  name: string;
  fullName: string;
  status: 'online' | 'offline';
  hashrate: number;
  change: string;
  shares: number;
  rejects: number;
  lastSeen: string | null;
  type: MinerType;
  algorithm: Algorithm;
}

export interface WorkersResponse {
  workers: Worker[];
  totals: { hashrate: number; active: number };
}

export interface WorkerUpdate {
  name?: string;
  type?: MinerType;
  algorithm?: Algorithm;
}

export interface ConnectionStatus {
  connected: boolean;
  lastShareAt: string | null;
  acceptedShares: number;
}

export type RewardDescription = 'pps-plus' | 'pplns' | 'solo';

export interface Reward {
  id: string;
  date: string;
  settledAt: string;
  avgHashrate: number;
  amount: string;
  coin: Coin;
  difficulty: number;
  description: RewardDescription;
}

export type PayoutStatus = 'completed' | 'pending' | 'failed';

export interface Payout {
  id: string;
  date: string;
  amount: string;
  coin: Coin;
  txId: string | null;
  status: PayoutStatus;
  address: string;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface PoolPort {
  algorithm: string;
  name: string;
  port: number;
  live: boolean;
}

export interface PoolPortsResponse {
  host: string;
  ports: PoolPort[];
}

export interface LookupMiner {
  id: string;
  name: string;
  algorithm: string;
  status: 'active' | 'inactive';
  hashrate: number;
  shares: { accepted: number; rejected: number; stale: number };
  earnings: { daily: string; weekly: string; monthly: string };
  lastSeen: string | null;
  source: 'pool' | 'hive';
}

export interface SearchResult {
  address: string;
  miners: LookupMiner[];
}

export interface SearchResponse {
  results: SearchResult[];
}
