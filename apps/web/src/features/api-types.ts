// Types of the agreed HTTP API for the data screens, taken from the zod schemas of
// @manjam/contract (type-only imports: no zod code reaches the bundle from here).
import { ACCOUNT_COINS, ALGORITHMS, DEFAULT_ALGORITHM } from '@manjam/contract';
import type {
  AccountCoin,
  AlgorithmHashrate as ContractAlgorithmHashrate,
  AlgorithmId,
  CreateMiner,
  Dashboard,
  DeviceType,
  HashrateSeries,
  LookupMiner as ContractLookupMiner,
  Miner as ContractMiner,
  MinerList,
  MinerLookup,
  Payout as ContractPayout,
  PoolPorts,
  RevenueSummary as ContractRevenueSummary,
  Reward as ContractReward,
  Unsettled as ContractUnsettled,
  UndeclaredWorker as ContractUndeclaredWorker,
  SearchResponse as ContractSearchResponse,
  Stat as ContractStat,
  UpdateWorker,
  Worker as ContractWorker,
  WorkerConnection,
  WorkerDetail as ContractWorkerDetail,
  WorkerList,
} from '@manjam/contract';

/** The algorithm ids of the API: the contract's one list, and the one a form starts on. */
export { ALGORITHMS, DEFAULT_ALGORITHM };
export type Algorithm = AlgorithmId;

export const MINER_TYPES = ['asic', 'gpu', 'cpu'] as const satisfies readonly DeviceType[];
export type MinerType = DeviceType;

/** The coins an account may name: the contract's list, from the protocol's coin table. */
export const COINS = ACCOUNT_COINS;
export type Coin = AccountCoin;

export type Stat = ContractStat;
export type DashboardResponse = Dashboard;
export type HashrateResponse = HashrateSeries;
export type HashratePoint = HashrateSeries['points'][number];
export type AlgorithmHashrate = ContractAlgorithmHashrate;

export type Miner = ContractMiner;
export type MinerStatus = Miner['status'];
export type MinersResponse = MinerList;
export type UndeclaredWorker = ContractUndeclaredWorker;
export type MinerInput = CreateMiner;

export type Worker = ContractWorker;
export type WorkersResponse = WorkerList;
export type WorkerDetail = ContractWorkerDetail;
export type WorkerUpdate = UpdateWorker;
export type ConnectionStatus = WorkerConnection;

export type Reward = ContractReward;
export type RevenueSummary = ContractRevenueSummary;
export type Unsettled = ContractUnsettled;
export type RewardDescription = Reward['description'];
export type Payout = ContractPayout;
export type PayoutStatus = Payout['status'];

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export type PoolPortsResponse = PoolPorts;
export type PoolPort = PoolPorts['ports'][number];

export type LookupMiner = ContractLookupMiner;
export type SearchResult = MinerLookup;
export type SearchResponse = ContractSearchResponse;
