// The KAS port on its own (no database, no pool around it) on the real kaspad simnet dev chain:
// the dev chain, a template source, the Stratum server with a share sink in memory, test miners.
// The drill (bench/lib/edge-kaspa-stratum.ts) and the integration test build it the same way.
import type { Logger } from 'pino';
import { ensureKaspad } from '../../../../../../../scripts/kaspad.mjs';
import { configSchema } from '../../../../../src/config/index.js';
import type { RejectReason } from '../../../../../src/shares/types.js';
import type { VardiffSettings } from '../../../../../src/stratum/vardiff.js';
import { startKaspaDevChain, type KaspaDevChain } from '../../../../../src/coins/kaspa/devchain.js';
import { KaspaTemplateSource } from '../../../../../src/coins/kaspa/template-source.js';
import { KaspaStratumServer } from '../../../../../src/coins/kaspa/stratum/server.js';
import type {
  KaspaAcceptedShare,
  KaspaFoundBlock,
  KaspaMinerRef,
  KaspaShareSink,
} from '../../../../../src/coins/kaspa/stratum/types.js';
import { KaspaTestMiner } from './miner.js';

/** The share sink of these tests: what the pool would journal, in the order it came. */
export class MemorySink implements KaspaShareSink {
  readonly accepted: KaspaAcceptedShare[] = [];
  readonly rejected: { miner: KaspaMinerRef; reason: RejectReason }[] = [];
  readonly blocks: KaspaFoundBlock[] = [];
  private blockWaiters: ((block: KaspaFoundBlock) => void)[] = [];

  addAccepted(share: KaspaAcceptedShare): void {
    this.accepted.push(share);
  }
  addRejected(miner: KaspaMinerRef, reason: RejectReason): void {
    this.rejected.push({ miner, reason });
  }
  addBlock(block: KaspaFoundBlock): Promise<void> {
    this.blocks.push(block);
    for (const waiter of this.blockWaiters.splice(0)) waiter(block);
    return Promise.resolve();
  }
  refusal(): string | undefined {
    return undefined;
  }
  nextBlock(): Promise<KaspaFoundBlock> {
    return new Promise((resolve) => this.blockWaiters.push(resolve));
  }
}

/**
 * Simnet's target is 0x207fffff (about 2^255: every second hash is a block). A share difficulty of
 * 3/4 of the network's (2^-31 in Kaspa's units) makes a third of the hashes too weak, a sixth
 * shares that are not blocks, and half blocks: every case a test needs, within a few hashes.
 */
export const SIMNET_SHARE_DIFFICULTY = 0.75 * 2 ** -31;

export const TEST_VARDIFF: VardiffSettings = {
  start: SIMNET_SHARE_DIFFICULTY,
  min: 2 ** -40,
  max: 2 ** 40,
  targetSeconds: 15,
  retargetSeconds: 3_600,
  variancePercent: 30,
};

export interface KaspaStandalone {
  chain: KaspaDevChain;
  source: KaspaTemplateSource;
  sink: MemorySink;
  server: KaspaStratumServer;
  port: number;
  connect(): Promise<KaspaTestMiner>;
  stop(): Promise<void>;
}

export async function startKaspaStandalone(options: {
  logger: Logger;
  jobValidMs?: number;
  maxJobsPerSecond?: number;
}): Promise<KaspaStandalone> {
  const { logger } = options;
  const installed = await ensureKaspad({ quiet: true });
  // No Go, no kaspad: the caller fails with the installer's words.
  if (!installed.ok) throw new Error(installed.reason);
  const chain = await startKaspaDevChain({ binaries: installed.binaries, logger, unfunded: true });
  const source = new KaspaTemplateSource({
    node: chain.node,
    payAddress: chain.poolAddress,
    logger,
    ...(options.jobValidMs === undefined ? {} : { jobValidMs: options.jobValidMs }),
    ...(options.maxJobsPerSecond === undefined ? {} : { maxJobsPerSecond: options.maxJobsPerSecond }),
  });
  const sink = new MemorySink();
  const miners: KaspaTestMiner[] = [];
  let server: KaspaStratumServer | undefined;
  const stop = async (): Promise<void> => {
    for (const miner of miners) miner.close();
    await server?.close();
    await source.stop();
    await chain.stop();
  };
  try {
    await source.start();
    const { stratum } = configSchema.parse({});
    server = new KaspaStratumServer({
      port: 0,
      host: '127.0.0.1',
      network: chain.network,
      scheme: 'pps-plus',
      vardiff: TEST_VARDIFF,
      stratum,
      source,
      sink,
      logger,
    });
    const port = await server.listen();
    const connect = async (): Promise<KaspaTestMiner> => {
      const miner = await KaspaTestMiner.connect(port);
      miners.push(miner);
      return miner;
    };
    return { chain, source, sink, server, port, connect, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
