import { EventEmitter } from 'node:events';
import type { CoinId } from './config/constants.js';

/**
 * In-process events between the pool's parts (Stratum -> live feed, alerts, accounting).
 * With roles split over several processes, each reads the database instead; these events only
 * make the single-process pool react at once.
 */
export interface PoolEventMap {
  /** Accepted shares flushed to the database (one event per flush and payee). */
  'shares.flushed': {
    coin: CoinId;
    payeeId: number;
    userId: number | null;
    workerIds: number[];
    count: number;
  };
  'worker.connected': {
    coin: CoinId;
    workerId: number | null;
    userId: number | null;
    login: string;
    /** shares/types.ts MinerRef.payeeKey and .worker of the login. */
    payeeKey: string;
    worker: string;
    /** The mining software as it named itself ('' when it did not). */
    agent: string;
  };
  'worker.disconnected': { coin: CoinId; workerId: number | null; userId: number | null; login: string };
  'block.found': { coin: CoinId; height: number; hash: string; status: string; finderUserId: number | null };
  'block.status': {
    coin: CoinId;
    height: number;
    hash: string;
    status: 'pending' | 'confirmed' | 'orphaned';
  };
  'payout.sent': { coin: CoinId; payeeId: number; userId: number | null; amount: bigint; txid: string };
  'template.new': { coin: CoinId; height: number; newTip: boolean };
}

export type PoolEventName = keyof PoolEventMap;

export class PoolEvents {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit<K extends PoolEventName>(name: K, payload: PoolEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends PoolEventName>(name: K, listener: (payload: PoolEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
