// The KAS chain side as the family will run it: kaspad (a configured node, or on regtest the
// simnet dev chain started here under the shared supervisor), the template source, /api/health's
// entry, and the Stratum ports on the shared kit. The options are a plain object for now: the
// config section (chains.KAS, zod) and `kaspaFamily: CoinFamily` come with the wiring, which needs
// 'kaspa' in the coin table's FAMILIES (a shared edit this part may not make; see family.ts there).
import { kaspaNetworkOf, type KaspaNetwork } from '@manjam/protocol/kaspa';
import type { Logger } from 'pino';
import type { StratumPortConfig } from '../../config/index.js';
import type { StratumKit } from '../../stratum/kit.js';
import type { ChainHealth, FamilyPorts } from '../family.js';
import { startKaspaDevChain, type KaspaBinaries, type KaspaDevChain } from './devchain.js';
import { KaspadClient } from './kaspad-client.js';
import { openKaspaPorts } from './stratum/ports.js';
import { KAS } from './stratum/types.js';
import { KaspaTemplateSource } from './template-source.js';

export type KaspaConfigNetwork = 'mainnet' | 'testnet' | 'regtest';

export interface KaspaChainOptions {
  /** The pool's network; regtest runs the simnet dev chain when no node is given. */
  network: KaspaConfigNetwork;
  /** host:port of a kaspad (Go or rusty) gRPC listener. Unset on regtest: the dev chain starts. */
  rpcAddress?: string;
  /** The pool wallet's address templates pay (required with rpcAddress). */
  payAddress?: string;
  /** kaspad, kaspawallet, kaspaminer for the dev chain (scripts/kaspad.mjs says where). */
  binaries?: KaspaBinaries;
  /** The dev chain's data directory (default: a temporary one). */
  dataDir?: string;
  maxJobsPerSecond?: number;
  jobValidMs?: number;
  extraData?: string;
}

export interface KaspaChainRuntime {
  readonly coin: string;
  readonly network: KaspaNetwork;
  readonly configNetwork: KaspaConfigNetwork;
  readonly node: KaspadClient;
  readonly source: KaspaTemplateSource;
  /** Present when this process started the simnet dev chain. */
  readonly devchain: KaspaDevChain | undefined;
  health(): Promise<ChainHealth>;
  /** KAS has work while its source holds a template. */
  up(): boolean;
  openPorts(
    kit: StratumKit,
    ports?: readonly Pick<StratumPortConfig, 'port' | 'scheme' | 'vardiff' | 'tls'>[],
  ): Promise<FamilyPorts>;
  stop(): Promise<void>;
}

/** What a configured node or the dev chain gives the source. */
async function nodeOf(
  options: KaspaChainOptions,
  logger: Logger,
): Promise<{
  node: KaspadClient;
  payAddress: string;
  devchain: KaspaDevChain | undefined;
  network: KaspaNetwork;
}> {
  if (options.rpcAddress) {
    if (!options.payAddress) throw new Error('KAS: a pay address is required with a node address');
    const node = new KaspadClient({ address: options.rpcAddress, logger });
    return {
      node,
      payAddress: options.payAddress,
      devchain: undefined,
      network: kaspaNetworkOf(options.network),
    };
  }
  if (options.network !== 'regtest')
    throw new Error(
      `KAS: a node address is required on ${options.network} (the dev chain runs on regtest only)`,
    );
  if (!options.binaries)
    throw new Error('KAS: no kaspad binaries for the dev chain (run node scripts/kaspad.mjs)');
  const devchain = await startKaspaDevChain({
    binaries: options.binaries,
    logger,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  });
  return { node: devchain.node, payAddress: devchain.poolAddress, devchain, network: devchain.network };
}

export async function startKaspaChain(
  options: KaspaChainOptions,
  logger: Logger,
): Promise<KaspaChainRuntime> {
  const { node, payAddress, devchain, network } = await nodeOf(options, logger);
  const source = new KaspaTemplateSource({
    node,
    payAddress,
    logger,
    ...(options.maxJobsPerSecond === undefined ? {} : { maxJobsPerSecond: options.maxJobsPerSecond }),
    ...(options.jobValidMs === undefined ? {} : { jobValidMs: options.jobValidMs }),
    ...(options.extraData === undefined ? {} : { extraData: options.extraData }),
  });
  const stopNode = async (): Promise<void> => {
    if (devchain) await devchain.stop();
    else node.close();
  };
  try {
    await source.start();
  } catch (error) {
    await source.stop();
    await stopNode();
    throw error;
  }
  const chain = { source, network, configNetwork: options.network };
  return {
    coin: KAS,
    network,
    configNetwork: options.network,
    node,
    source,
    devchain,
    health: () => kaspaHealth(node, source),
    up: () => source.current !== undefined,
    openPorts: (kit, ports) => openKaspaPorts(kit, chain, ports),
    async stop() {
      await source.stop();
      await stopNode();
    },
  };
}

/** /api/health's view of KAS: kaspad answers GetBlockDagInfo (the DAA score stands for a height). */
async function kaspaHealth(node: KaspadClient, source: KaspaTemplateSource): Promise<ChainHealth> {
  try {
    const info = await node.getBlockDagInfo();
    return { coin: KAS, ok: true, height: Number(info.virtualDaaScore) };
  } catch (error) {
    const current = source.current;
    return {
      coin: KAS,
      ok: false,
      height: current ? Number(current.daaScore) : null,
      error: (error as Error).message,
    };
  }
}
