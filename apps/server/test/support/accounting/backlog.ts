// A backlog for the bounded-slice tests and the backlog drill (bench/lib/edge-backlog.ts): found
// blocks and accepted shares written through the repositories the Stratum side writes them with
// (BlocksRepository.insertFound, SharesRepository.insertMany), on a MemoryChain that holds every
// block and is mined past coinbase maturity, as after a regtest run that found thousands of blocks.
import type { Queryable } from '../../../src/db/index.js';
import { BlocksRepository } from '../../../src/db/repositories/blocks.js';
import { SharesRepository, type ShareRow } from '../../../src/db/repositories/shares.js';
import { createUserMiner, type MinerFixture } from './fixtures.js';
import { MemoryChain } from './memory-chain.js';

export interface BacklogSpec {
  blocks: number;
  /** Shares of each scheme (PPLNS and PPS+) written before each block. */
  sharesPerBlock: number;
  miners: number;
}

export interface Backlog {
  coin: 'BTC';
  chain: MemoryChain;
  miners: MinerFixture[];
  /** Share rows written (both schemes). */
  shares: number;
  /** What the backlog is worth in base units: every block's reward and every PPS+ share's value. */
  value: bigint;
}

/** Every block's reward: regtest BTC's subsidy at heights 150-299 (50 BTC halved once). */
export const BACKLOG_REWARD = 2_500_000_000n;
/**
 * PPS+ shares are valued at this height's subsidy with difficulty 1-3 of 4: each share's value
 * and the 1 % fee on it are whole base units, so credits do not depend on how shares are batched.
 */
const PPS_HEIGHT = 200;
const NETWORK_DIFFICULTY = 4;
const ROWS_PER_INSERT = 5_000;

export async function buildBacklog(db: Queryable, spec: BacklogSpec): Promise<Backlog> {
  const coin = 'BTC';
  const miners: MinerFixture[] = [];
  for (let i = 0; i < spec.miners; i++) miners.push(await createUserMiner(db, coin));
  const chain = new MemoryChain(PPS_HEIGHT);
  const hashes = chain.extend(spec.blocks);
  const start = Date.now() - 3_600_000;
  const step = 3_600_000 / (spec.blocks * (spec.sharesPerBlock + 1));
  const shares = new SharesRepository(db);
  const blocks = new BlocksRepository(db);
  let pending: ShareRow[] = [];
  let written = 0;
  let value = 0n;
  let at = start;
  for (let b = 0; b < spec.blocks; b++) {
    for (let s = 0; s < spec.sharesPerBlock; s++, at += step) {
      const miner = miners[(b + s) % miners.length] ?? miners[0];
      if (!miner) throw new Error('a backlog needs at least one miner');
      const difficulty = 1 + ((b + s) % 3);
      value += (BACKLOG_REWARD * BigInt(difficulty)) / BigInt(NETWORK_DIFFICULTY);
      for (const scheme of ['pplns', 'pps-plus'] as const)
        pending.push({
          workerId: miner.workerId,
          payeeId: miner.payeeId,
          coin,
          difficulty,
          networkDifficulty: NETWORK_DIFFICULTY,
          height: scheme === 'pps-plus' ? PPS_HEIGHT : PPS_HEIGHT + 1 + b,
          scheme,
          createdAtMs: Math.floor(at),
        });
    }
    if (pending.length >= ROWS_PER_INSERT || b === spec.blocks - 1) {
      await shares.insertMany(pending);
      written += pending.length;
      pending = [];
    }
    at += step;
    value += BACKLOG_REWARD;
    const finder = miners[b % miners.length];
    await blocks.insertFound({
      coin,
      height: PPS_HEIGHT + 1 + b,
      hash: hashes[b] ?? '',
      finderWorkerId: finder?.workerId ?? null,
      finderPayeeId: finder?.payeeId ?? null,
      scheme: 'pplns',
      reward: BACKLOG_REWARD,
      subsidy: BACKLOG_REWARD,
      fees: 0n,
      networkDifficulty: NETWORK_DIFFICULTY,
      shareDifficulty: 1,
      status: 'pending',
      submitResult: null,
      foundAt: new Date(Math.floor(at)),
    });
  }
  chain.extend(100); // every block past coinbase maturity: its credits are written this cycle
  return { coin, chain, miners, shares: written, value };
}
