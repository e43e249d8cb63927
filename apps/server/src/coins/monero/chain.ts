// XMR's chain side (the Bitcoin-family coins' is chains.ts): monerod for templates and found
// blocks, monero-wallet-rpc for the pool wallet. With no `chains.XMR.daemonUrl` on regtest, the
// Monero regtest dev chain (devchain/monero.ts) is started and stopped with the pool.
import { join } from 'node:path';
import { isMoneroAddress, moneroNetworkOf } from '@manjam/protocol/monero';
import { ConfigError, type Config } from '../../config/index.js';
import type { ChainHealth } from '../family.js';
import { MoneroRpcClient } from './rpc.js';
import { startMoneroDevChain, type MoneroDevChain } from './devchain.js';
import type { Logger } from '../../logger.js';
import { MoneroTemplateSource, type MoneroWorkSource } from './stratum/template-source.js';

/** What the XMR ports need of the chain side: the coin, its network, its work (a node's or the core's). */
export interface MoneroWork {
  coin: 'XMR';
  network: Config['chains']['XMR']['network'];
  source: MoneroWorkSource;
}

export interface MoneroChainRuntime extends MoneroWork {
  /** monerod: templates, submitted blocks, block ids by height (accounting). */
  daemon: MoneroRpcClient;
  /** monero-wallet-rpc with the pool wallet open (payouts), when one is configured or started. */
  wallet: MoneroRpcClient | undefined;
  /** The pool wallet's primary address: every template pays it. */
  poolAddress: string;
  source: MoneroTemplateSource;
  devchain: MoneroDevChain | undefined;
  health(): Promise<ChainHealth>;
  stop(): Promise<void>;
}

/** Starts XMR's chain side, or resolves undefined when `chains.XMR.enabled` is false. */
export async function startMoneroChain(
  config: Config,
  logger: Logger,
): Promise<MoneroChainRuntime | undefined> {
  const chain = config.chains.XMR;
  if (!chain.enabled) return undefined;
  if (!chain.daemonUrl && chain.network !== 'regtest')
    throw new ConfigError(
      `config: chains.XMR.daemonUrl: required for ${chain.network} (dev chains run on regtest only)`,
    );
  const devchain = chain.daemonUrl
    ? undefined
    : await startMoneroDevChain({ logger, dataDir: join(config.dataDir, 'devchain', 'xmr') });
  try {
    const daemon = devchain?.daemon ?? new MoneroRpcClient(chain.daemonUrl ?? '', chain.rpcTimeoutMs);
    const walletUrl = chain.walletRpcUrl;
    const wallet =
      devchain?.wallet ?? (walletUrl ? new MoneroRpcClient(walletUrl, chain.rpcTimeoutMs) : undefined);
    const poolAddress = devchain?.poolAddress ?? chain.poolAddress;
    if (!poolAddress)
      throw new ConfigError('config: chains.XMR.poolAddress: required with a configured node');
    // monerod mines to a standard address only ("Mining to subaddress is not supported yet").
    if (!isMoneroAddress(poolAddress, moneroNetworkOf(chain.network), ['standard']))
      throw new ConfigError(`config: chains.XMR.poolAddress: not a standard Monero ${chain.network} address`);
    const source = new MoneroTemplateSource({
      daemon,
      address: poolAddress,
      logger: logger.child({ coin: 'XMR' }),
      pollMs: chain.pollIntervalMs,
      mempoolRefreshMs: chain.mempoolRefreshMs,
      zmqPubUrl: devchain?.zmqPubUrl ?? chain.zmqPubUrl,
    });
    await source.start();
    logger.info({ coin: 'XMR', height: source.current?.height, dev: Boolean(devchain) }, 'XMR chain ready');
    return {
      coin: 'XMR',
      network: chain.network,
      daemon,
      wallet,
      poolAddress,
      source,
      devchain,
      health: () => moneroHealth(daemon, source),
      async stop() {
        await source.stop();
        await devchain?.stop();
      },
    };
  } catch (error) {
    await devchain?.stop();
    throw error;
  }
}

/** /api/health's view of XMR: monerod answers get_info. */
async function moneroHealth(daemon: MoneroRpcClient, source: MoneroTemplateSource): Promise<ChainHealth> {
  try {
    const info = await daemon.call<{ height: number }>('get_info', {}, { timeoutMs: 5_000 });
    // get_info's height counts blocks (the next block's height), as getblockcount + 1.
    return { coin: 'XMR', ok: true, height: info.height - 1, newTipsBy: source.newTipsBy };
  } catch (error) {
    return {
      coin: 'XMR',
      ok: false,
      height: source.current ? source.current.height - 1 : null,
      error: (error as Error).message,
      newTipsBy: source.newTipsBy,
    };
  }
}
