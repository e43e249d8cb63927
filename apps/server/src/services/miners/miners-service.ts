import {
  PORT_TABLE,
  type CreateMiner,
  type Miner,
  type MinerList,
  type MinerWorker,
  type UndeclaredWorker,
} from '@manjam/contract';
import type { Queryable } from '../../db/index.js';
import { MinersRepository, type MinerRow, type NewMiner } from '../../db/repositories/miners.js';
import { notFound } from '../errors.js';
import type { WorkerActivity, WorkersService } from '../workers/workers-service.js';

/** Declared devices joined with the user's live workers that carry the miner's worker name. */
export class MinersService {
  private readonly repo: MinersRepository;

  constructor(
    db: Queryable,
    private readonly workers: WorkersService,
  ) {
    this.repo = new MinersRepository(db);
  }

  /**
   * The declared miners of a type with their live workers, and the online workers no declared
   * miner (of any type) claims: one story, so a page never says "no miners" while workers mine.
   */
  async list(userId: number, type: 'all' | 'asic' | 'gpu' | 'cpu'): Promise<MinerList> {
    const [rows, snapshot] = await Promise.all([
      this.repo.listForUser(userId, null),
      this.workers.snapshot(userId),
    ]);
    const shown = type === 'all' ? rows : rows.filter((row) => row.type === type);
    const claimed = new Set(rows.flatMap((row) => claimedBy(row, snapshot.workers).map((w) => w.row.id)));
    return {
      miners: shown.map((row) =>
        joinLive(row, snapshot.workers, this.workers.isConnected(userId, row.workerName)),
      ),
      undeclared: snapshot.workers
        .filter((w) => w.online && !claimed.has(w.row.id) && (type === 'all' || w.row.type === type))
        .flatMap((w) => undeclaredOf(w)),
    };
  }

  async create(userId: number, input: CreateMiner): Promise<Miner> {
    const id = await this.repo.insert(userId, input);
    return this.get(userId, id);
  }

  async update(userId: number, id: number, patch: Partial<NewMiner>): Promise<Miner> {
    if (!(await this.repo.update(userId, id, patch))) throw notFound('minerNotFound', 'miner-not-found');
    return this.get(userId, id);
  }

  async delete(userId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw notFound('minerNotFound', 'miner-not-found');
  }

  private async get(userId: number, id: number): Promise<Miner> {
    const [row, snapshot] = await Promise.all([
      this.repo.findForUser(userId, id),
      this.workers.snapshot(userId),
    ]);
    if (!row) throw notFound('minerNotFound', 'miner-not-found');
    return joinLive(row, snapshot.workers, this.workers.isConnected(userId, row.workerName));
  }
}

/** The algorithm id (contract ALGORITHMS) a worker's coin is mined with, from PORT_TABLE. */
function algorithmOfWorker(worker: WorkerActivity): string | null {
  return PORT_TABLE.find((row) => row.coin === worker.row.coin)?.account ?? null;
}

/**
 * A declared miner is joined with the user's workers of its worker name that mine its algorithm:
 * a "rig1" on SHA-256 and a "rig1" on Scrypt are two machines, and hashes of two algorithms are
 * never summed (as in services/shared/hashrate.ts).
 * online: every matching worker online; warning: some offline or the 10-minute hashrate under half the 1-hour average; connected: none
 * online but a session of the worker is authorized (no share yet); offline: none online.
 */
export function joinLive(row: MinerRow, workers: readonly WorkerActivity[], connected = false): Miner {
  const matching = claimedBy(row, workers);
  const online = matching.filter((w) => w.online).length;
  const hashrate = matching.reduce((sum, w) => sum + (w.figures?.realtime ?? 0), 0);
  const hourAverage = matching.reduce((sum, w) => sum + (w.figures?.hour ?? 0), 0);
  const lastSeen = matching.reduce<Date | null>(
    (latest, w) =>
      w.row.lastShareAt && (!latest || w.row.lastShareAt > latest) ? w.row.lastShareAt : latest,
    null,
  );
  const status =
    online === 0
      ? connected
        ? 'connected'
        : 'offline'
      : online < matching.length || hashrate < hourAverage / 2
        ? 'warning'
        : 'online';
  return {
    id: row.id,
    name: row.name,
    type: row.type as Miner['type'],
    algorithm: row.algorithm as Miner['algorithm'],
    workerName: row.workerName,
    status,
    hashrate,
    workers: matching.length,
    linked: matching.map(workerOf),
    lastSeen: lastSeen?.toISOString() ?? null,
  };
}

/** The workers a declared miner claims: its worker name (any case) on a port of its algorithm. */
function claimedBy(row: MinerRow, workers: readonly WorkerActivity[]): WorkerActivity[] {
  const wanted = row.workerName.toLowerCase();
  return workers.filter((w) => w.row.name.toLowerCase() === wanted && algorithmOfWorker(w) === row.algorithm);
}

function workerOf(w: WorkerActivity): MinerWorker {
  return { id: w.row.id, name: w.row.displayName ?? w.row.name, coin: w.row.coin, online: w.online };
}

function undeclaredOf(w: WorkerActivity): UndeclaredWorker[] {
  const algorithm = algorithmOfWorker(w);
  if (!algorithm) return [];
  return [
    {
      ...workerOf(w),
      // The name the miner logs in with (what a declared miner's worker name must match).
      name: w.row.name,
      algorithm: algorithm as UndeclaredWorker['algorithm'],
      type: w.row.type as UndeclaredWorker['type'],
      hashrate: w.figures?.realtime ?? 0,
      lastSeen: w.row.lastShareAt?.toISOString() ?? null,
    },
  ];
}
