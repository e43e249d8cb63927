// The KAS chain side: kaspad (a configured node, or on regtest the simnet dev chain started here
// under the shared supervisor), the template source, /api/health's entry, and the Stratum ports on
// the shared kit. chains.KAS (its section: config/families/kaspa.ts) says which.
import { join, resolve } from 'node:path';
import { isKaspaAddress, kaspaNetworkOf, type KaspaNetwork } from '@manjam/protocol/kaspa';
import { ConfigError, type Config } from '../../config/index.js';
import type { KaspaChainConfig } from '../../config/families/kaspa.js';
import type { Logger } from '../../logger.js';
import type { StratumKit } from '../../stratum/kit.js';
import type { ChainHealth, FamilyPorts } from '../family.js';
import { KAS_DEV_FEE_RATE, startKaspaDevChain, type KaspaBinaries, type KaspaDevChain } from './devchain.js';
import { requireBinaries } from './dev-processes.js';
import { KaspadClient } from './kaspad-client.js';
import { KaspadNodes } from './kaspad-nodes.js';
import { KaspaWalletClient, type KaspaFeePolicy } from './kaspawallet-client.js';
import { KaspaAccountingChain } from './wallet.js';
import { openKaspaPorts } from './stratum/ports.js';
import { KAS } from './stratum/types.js';
import { KaspaTemplateSource } from './template-source.js';

export interface KaspaChainRuntime {
  readonly coin: typeof KAS;
  readonly network: KaspaNetwork;
  readonly configNetwork: KaspaChainConfig['network'];
  readonly node: KaspadClient;
  /** The pool wallet's address every template pays. */
  readonly poolAddress: string;
  readonly source: KaspaTemplateSource;
  /** Present when this process started the simnet dev chain. */
  readonly devchain: KaspaDevChain | undefined;
  health(): Promise<ChainHealth>;
  /** KAS has work while its source holds a template. */
  up(): boolean;
  /**
   * The accounting chain over kaspad and the pool wallet's daemon (the dev chain's, or
   * chains.KAS.walletDaemonAddress with its password); undefined without a wallet daemon.
   */
  accounting(): KaspaAccountingChain | undefined;
  openPorts(kit: StratumKit): Promise<FamilyPorts>;
  stop(): Promise<void>;
}

/** The dev chain's binaries in `binDir`, or undefined when one is missing or not executable. */
async function devBinaries(binDir: string): Promise<KaspaBinaries | undefined> {
  const dir = resolve(binDir);
  const binaries = {
    kaspad: join(dir, 'kaspad'),
    kaspawallet: join(dir, 'kaspawallet'),
    kaspaminer: join(dir, 'kaspaminer'),
  };
  return requireBinaries(binaries).then(
    () => binaries,
    () => undefined,
  );
}

/** The pool wallet's daemon and how Send is called on it. */
interface PoolWallet {
  client: KaspaWalletClient;
  password: string;
  feePolicy?: KaspaFeePolicy;
}

/** What a configured node or the dev chain gives the chain side; undefined: KAS is off here. */
interface StartedNode {
  /** The primary node (accounting reads the DAG and the wallet's chain through it). */
  node: KaspadClient;
  /** Configured backups, tried in order when the primary is silent. */
  backups: KaspadClient[];
  payAddress: string;
  devchain: KaspaDevChain | undefined;
  wallet: PoolWallet | undefined;
}

async function nodeOf(config: Config, logger: Logger): Promise<StartedNode | undefined> {
  const chain = config.chains.KAS;
  const network = kaspaNetworkOf(chain.network);
  if (chain.rpcAddress) {
    if (!chain.poolAddress)
      throw new ConfigError('config: chains.KAS.poolAddress: required with chains.KAS.rpcAddress');
    if (!isKaspaAddress(chain.poolAddress, network))
      throw new ConfigError(`config: chains.KAS.poolAddress: not a Kaspa ${network} address`);
    if (chain.walletDaemonAddress && !chain.walletPassword)
      throw new ConfigError(
        'config: chains.KAS.walletPassword: required with chains.KAS.walletDaemonAddress',
      );
    const node = new KaspadClient({ address: chain.rpcAddress, logger });
    const backups = chain.rpcBackupAddresses.map((address) => new KaspadClient({ address, logger }));
    const wallet =
      chain.walletDaemonAddress && chain.walletPassword
        ? { client: new KaspaWalletClient(chain.walletDaemonAddress), password: chain.walletPassword }
        : undefined;
    return { node, backups, payAddress: chain.poolAddress, devchain: undefined, wallet };
  }
  if (chain.network !== 'regtest')
    throw new ConfigError(
      `config: chains.KAS.rpcAddress: required for ${chain.network} (the dev chain runs on regtest only)`,
    );
  const binaries = await devBinaries(chain.binDir);
  if (!binaries) {
    logger.warn(
      { coin: KAS, binDir: resolve(chain.binDir) },
      'KAS is off: no kaspad, kaspawallet and kaspaminer in chains.KAS.binDir (npm start builds them with Go; ' +
        'install Go, or set chains.KAS.rpcAddress, or chains.KAS.enabled: false to silence this)',
    );
    return undefined;
  }
  const devchain = await startKaspaDevChain({
    binaries,
    logger,
    dataDir: join(config.dataDir, 'devchain', 'kas'),
  });
  // Go kaspad answers no fee estimate: the dev wallet pays a fixed rate.
  const wallet: PoolWallet = {
    client: devchain.wallet,
    password: devchain.walletPassword,
    feePolicy: { exactFeeRate: KAS_DEV_FEE_RATE },
  };
  return { node: devchain.node, backups: [], payAddress: devchain.poolAddress, devchain, wallet };
}

/** Starts KAS's chain side when chains.KAS is enabled (and, on the dev chain, its binaries exist). */
export async function startKaspaChain(
  config: Config,
  logger: Logger,
): Promise<KaspaChainRuntime | undefined> {
  const settings = config.chains.KAS;
  if (!settings.enabled) return undefined;
  const started = await nodeOf(config, logger);
  if (!started) return undefined;
  const { node, backups, payAddress, devchain, wallet } = started;
  const network = devchain?.network ?? kaspaNetworkOf(settings.network);
  const nodes = new KaspadNodes({
    coin: KAS,
    nodes: [node, ...backups],
    silenceMs: settings.nodeSilenceSeconds * 1000,
    logger,
  });
  const source = new KaspaTemplateSource({
    node: nodes,
    payAddress,
    logger: logger.child({ coin: KAS }),
    maxJobsPerSecond: settings.maxJobsPerSecond,
    jobValidMs: settings.jobValidSeconds * 1000,
  });
  const stopNode = async (): Promise<void> => {
    nodes.close();
    for (const backup of backups) backup.close();
    if (devchain) await devchain.stop();
    else {
      wallet?.client.close();
      node.close();
    }
  };
  try {
    await source.start();
  } catch (error) {
    await source.stop();
    await stopNode();
    throw error;
  }
  const chain = { source, network, configNetwork: settings.network };
  return {
    coin: KAS,
    network,
    configNetwork: settings.network,
    node,
    poolAddress: payAddress,
    source,
    devchain,
    health: () => kaspaHealth(nodes, source),
    up: () => source.current !== undefined,
    accounting: () =>
      wallet
        ? new KaspaAccountingChain(node, wallet.client, {
            password: wallet.password,
            ...(wallet.feePolicy ? { feePolicy: wallet.feePolicy } : {}),
          })
        : undefined,
    openPorts: (kit) => openKaspaPorts(kit, chain),
    async stop() {
      await source.stop();
      await stopNode();
    },
  };
}

/**
 * /api/health's view of KAS: the node in use answers GetBlockDagInfo (the DAA score stands for a
 * height); while the work is stopped, since when.
 */
async function kaspaHealth(nodes: KaspadNodes, source: KaspaTemplateSource): Promise<ChainHealth> {
  const availability = nodes.availability();
  const down = availability.up ? {} : { downSince: availability.since.toISOString() };
  try {
    const info = await nodes.inUse.getBlockDagInfo();
    return { coin: KAS, ok: availability.up, height: Number(info.virtualDaaScore), ...down };
  } catch (error) {
    const current = source.current;
    return {
      coin: KAS,
      ok: false,
      height: current ? Number(current.daaScore) : null,
      error: (error as Error).message,
      ...down,
    };
  }
}
