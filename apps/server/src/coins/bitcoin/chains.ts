// Starts each enabled Bitcoin-family coin's chain side (XMR's is monero-chain.ts): the node (a configured one, or a regtest dev chain when
// none is configured), its template watcher and the TemplateSource the Stratum server reads.
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import type { ChainHealth } from '../family.js';
import { BITCOIN_FAMILY_COINS, isValidAddress, coinParams, type BitcoinFamilyCoin } from '@manjam/protocol';
import { ConfigError, type Config } from '../../config/core.js';
import { ChainNode, NodeSet, TemplateWatcher, blocknotifyCommand, type RpcEndpoint } from './node/index.js';
import { startBtcDevChain, startLtcDevChain, type DevChain } from './devchain/index.js';
import { createChainSource, type ChainSource } from './chain-source.js';
import type { Logger } from '../../logger.js';

export type { ChainHealth } from '../family.js';

export interface ChainRuntime {
  coin: BitcoinFamilyCoin;
  /** The configured node: wallet calls (payouts) and accounting. */
  node: ChainNode;
  /** Every node of the coin (the configured one, then rpcBackups): templates and found blocks. */
  nodes: NodeSet;
  watcher: TemplateWatcher;
  source: ChainSource;
  devchain: DevChain | undefined;
  health(): Promise<ChainHealth>;
  stop(): Promise<void>;
}

/** Coins that are enabled and have no node configured: on regtest a dev chain stands in. */
function devCoins(config: Config): BitcoinFamilyCoin[] {
  return BITCOIN_FAMILY_COINS.filter((coin) => {
    const chain = config.chains[coin];
    if (!chain.enabled || chain.rpc) return false;
    if (chain.network !== 'regtest') {
      throw new ConfigError(
        `config: chains.${coin}.rpc: required for ${chain.network} (dev chains run on regtest only)`,
      );
    }
    return true;
  });
}

function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

async function startDevChain(
  coin: BitcoinFamilyCoin,
  config: Config,
  logger: Logger,
  blocknotifyPort: number,
): Promise<DevChain> {
  const options = {
    logger,
    dataDir: join(config.dataDir, 'devchain', coin.toLowerCase()),
    blocknotifyCommand: blocknotifyCommand(blocknotifyPort, coin),
  };
  return coin === 'BTC' ? startBtcDevChain(options) : startLtcDevChain(options);
}

/** `manjam devchain`: the dev chains alone. */
export async function startDevChains(config: Config, logger: Logger): Promise<DevChain[]> {
  const chains: DevChain[] = [];
  try {
    for (const coin of devCoins(config))
      chains.push(await startDevChain(coin, config, logger, await freeUdpPort()));
  } catch (error) {
    await Promise.all(chains.map((chain) => chain.stop()));
    throw error;
  }
  return chains;
}

export async function startChains(config: Config, logger: Logger): Promise<ChainRuntime[]> {
  const dev = new Set(devCoins(config));
  // Both coins start at once: a dev chain spends most of its start-up waiting on its node.
  const results = await Promise.allSettled(
    BITCOIN_FAMILY_COINS.filter((coin) => config.chains[coin].enabled).map((coin) =>
      startChain(coin, config, logger, dev.has(coin)),
    ),
  );
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((chain) => chain.stop()));
    throw failed.reason;
  }
  return started;
}

async function startChain(
  coin: BitcoinFamilyCoin,
  config: Config,
  logger: Logger,
  dev: boolean,
): Promise<ChainRuntime> {
  const chain = config.chains[coin];
  const blocknotifyPort = chain.blocknotifyPort || (await freeUdpPort());
  const devchain = dev ? await startDevChain(coin, config, logger, blocknotifyPort) : undefined;
  const rpc: RpcEndpoint | undefined = devchain?.rpc ?? chain.rpc;
  const poolAddress = devchain?.poolAddress ?? chain.poolAddress;
  if (!rpc) throw new ConfigError(`config: chains.${coin}.rpc: required`);
  if (!poolAddress)
    throw new ConfigError(`config: chains.${coin}.poolAddress: required with a configured node`);
  if (!isValidAddress(poolAddress, coinParams(coin, chain.network))) {
    throw new ConfigError(`config: chains.${coin}.poolAddress: not a valid ${coin} ${chain.network} address`);
  }
  const node = new ChainNode({
    coin,
    rpc,
    walletRpc: devchain?.walletRpc ?? chain.walletRpc ?? rpc,
    timeoutMs: chain.rpcTimeoutMs,
  });
  const backups = chain.rpcBackups.map(
    (endpoint) => new ChainNode({ coin, rpc: endpoint, timeoutMs: chain.rpcTimeoutMs }),
  );
  const nodes = new NodeSet([node, ...backups], logger);
  const watcher = new TemplateWatcher({
    node: nodes,
    logger,
    silenceMs: chain.nodeSilenceSeconds * 1000,
    blocknotifyPort,
    pollIntervalMs: chain.pollIntervalMs,
    refreshIntervalMs: chain.refreshIntervalMs,
  });
  const source = createChainSource({ coin, network: chain.network, poolAddress, node: nodes, watcher });
  await watcher.start();
  return {
    coin,
    node,
    nodes,
    watcher,
    source,
    devchain,
    health: () => chainHealth(coin, nodes, watcher),
    async stop() {
      source.close();
      await watcher.stop();
      // Close kept-alive RPC sockets first so the node's RPC server shuts down at once.
      nodes.close();
      await devchain?.stop();
    },
  };
}

/** /api/health's view of a coin: a node answers, and work is not stopped (else since when). */
export async function chainHealth(
  coin: BitcoinFamilyCoin,
  nodes: NodeSet,
  watcher: TemplateWatcher,
): Promise<ChainHealth> {
  const status = watcher.status();
  const heard = { newTipsBy: status.newTipsBy };
  const down = status.downSince ? { downSince: status.downSince.toISOString() } : {};
  try {
    const height = await nodes.getBlockCount();
    // A node answering a moment before the watcher notices still leaves work stopped until then.
    return status.up
      ? { coin, ok: true, height, ...heard }
      : { coin, ok: false, height, error: 'work stopped: no node answered in time', ...heard, ...down };
  } catch (error) {
    return { coin, ok: false, height: status.height, error: (error as Error).message, ...heard, ...down };
  }
}
