// The XMR port on its own (no database, no pool around it) on a real regtest monerod: the dev
// chain, a template source, the Stratum server with a share sink in memory, and RandomX pools for
// the server and for the test miners (a miner is another machine).
import { RandomXPool } from '@manjam/randomx';
import type { Logger } from 'pino';
import { configSchema } from '../../../../../src/config/index.js';
import type { MoneroDevChain } from '../../../../../src/coins/monero/devchain.js';
import { startMoneroTestChain } from '../chain-snapshot.js';
import type { RejectReason } from '../../../../../src/shares/types.js';
import type { VardiffSettings } from '../../../../../src/stratum/vardiff.js';
import { MoneroStratumServer } from '../../../../../src/coins/monero/stratum/server.js';
import { MoneroTemplateSource } from '../../../../../src/coins/monero/stratum/template-source.js';
import type {
  MoneroAcceptedShare,
  MoneroFoundBlock,
  MoneroMinerRef,
  MoneroShareSink,
  MoneroStratumOptions,
} from '../../../../../src/coins/monero/stratum/types.js';
import { MoneroTestMiner } from './miner.js';

/** The share sink of these tests: what the pool would journal. */
export class MemorySink implements MoneroShareSink {
  readonly accepted: MoneroAcceptedShare[] = [];
  readonly rejected: { miner: MoneroMinerRef; reason: RejectReason }[] = [];
  readonly blocks: MoneroFoundBlock[] = [];
  private blockWaiters: ((block: MoneroFoundBlock) => void)[] = [];

  /** Durable at once: no socket to hold. */
  addAccepted(share: MoneroAcceptedShare): void {
    this.accepted.push(share);
  }
  addRejected(miner: MoneroMinerRef, reason: RejectReason): void {
    this.rejected.push({ miner, reason });
  }
  addBlock(block: MoneroFoundBlock): Promise<void> {
    this.blocks.push(block);
    for (const waiter of this.blockWaiters.splice(0)) waiter(block);
    return Promise.resolve();
  }
  refusal(): string | undefined {
    return undefined;
  }
  nextBlock(): Promise<MoneroFoundBlock> {
    return new Promise((resolve) => this.blockWaiters.push(resolve));
  }
}

export const TEST_VARDIFF: VardiffSettings = {
  start: 1,
  min: 1,
  max: 1e12,
  targetSeconds: 15,
  retargetSeconds: 90,
  variancePercent: 30,
};

/** Difficulty 1 for good: a test miner submitting a share a second is not moved to harder work. */
export const FIXED_VARDIFF: VardiffSettings = { ...TEST_VARDIFF, max: 1 };

export interface StandaloneOptions {
  logger: Logger;
  /** monerod --fixed-difficulty. */
  networkDifficulty: bigint;
  /** Blocks at start (default: the dev chain's 100, enough for the pool wallet to transfer). */
  initialBlocks?: number;
  serverThreads?: number;
  /**
   * The server's RandomX pool releases its caches this long after the last miner left, and builds
   * nothing before a login (as the pool in light mode). Unset: built at start and kept.
   */
  idleReleaseMs?: number;
  mempoolRefreshMs?: number;
  /** Ban verdicts every this many submits (default: the config's). */
  banCheckAfterShares?: number;
}

export interface StandalonePort {
  chain: MoneroDevChain;
  source: MoneroTemplateSource;
  sink: MemorySink;
  /** The server's RandomX pool, and the one test miners hash with. */
  randomx: RandomXPool;
  minerRandomx: RandomXPool;
  /** A server on the same source (with `tls`: a TLS port); closed by stop. */
  addServer(
    vardiff?: VardiffSettings,
    tls?: MoneroStratumOptions['tls'],
    /** Config `stratum` keys for this server (e.g. `{ ban: { enabled: false } }`). */
    stratumConfig?: Record<string, unknown>,
  ): Promise<{ server: MoneroStratumServer; port: number }>;
  /** A test miner connected to `port` (over TLS with `tls`); closed by stop. */
  connect(port: number, options?: { tls?: boolean }): Promise<MoneroTestMiner>;
  stop(): Promise<void>;
}

export async function startStandalone(options: StandaloneOptions): Promise<StandalonePort> {
  const { logger } = options;
  const chain = await startMoneroTestChain({
    logger,
    initialBlocks: options.initialBlocks,
    fixedDifficulty: Number(options.networkDifficulty),
  });
  const source = new MoneroTemplateSource({
    daemon: chain.daemon,
    address: chain.poolAddress,
    logger,
    pollMs: 1_000,
    mempoolRefreshMs: options.mempoolRefreshMs ?? configSchema.parse({}).chains.XMR.mempoolRefreshMs,
    zmqPubUrl: chain.zmqPubUrl,
  });
  const randomx = new RandomXPool({
    threads: options.serverThreads ?? 2,
    ...(options.idleReleaseMs === undefined ? {} : { idleReleaseMs: options.idleReleaseMs }),
  });
  const minerRandomx = new RandomXPool({ threads: 2 });
  const sink = new MemorySink();
  const servers: MoneroStratumServer[] = [];
  const miners: MoneroTestMiner[] = [];
  const stop = async (): Promise<void> => {
    for (const miner of miners) miner.close();
    await Promise.all(servers.map((server) => server.close()));
    await source.stop();
    await Promise.all([randomx.close(), minerRandomx.close()]);
    await chain.stop();
  };
  try {
    await source.start();
    const seed = source.current?.seedHash as Uint8Array;
    await Promise.all([randomx.wanted ? randomx.prepare(seed) : undefined, minerRandomx.prepare(seed)]);
    const ban = options.banCheckAfterShares ? { checkAfterShares: options.banCheckAfterShares } : {};
    const addServer = async (
      vardiff = TEST_VARDIFF,
      tls?: MoneroStratumOptions['tls'],
      stratumConfig: Record<string, unknown> = {},
    ): Promise<{ server: MoneroStratumServer; port: number }> => {
      const { stratum } = configSchema.parse({ stratum: { ban, ...stratumConfig } });
      const server = new MoneroStratumServer({
        port: 0,
        host: '127.0.0.1',
        ...(tls ? { tls } : {}),
        network: 'mainnet', // regtest addresses use mainnet prefixes
        scheme: 'pps-plus',
        vardiff,
        stratum,
        source,
        randomx,
        sink,
        logger,
      });
      servers.push(server);
      return { server, port: await server.listen() };
    };
    const connect = async (port: number, options: { tls?: boolean } = {}): Promise<MoneroTestMiner> => {
      const miner = await MoneroTestMiner.connect(port, minerRandomx, options);
      miners.push(miner);
      return miner;
    };
    return { chain, source, sink, randomx, minerRandomx, addServer, connect, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
