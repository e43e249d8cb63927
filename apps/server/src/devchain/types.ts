import { BITCOIN_FAMILY_COINS, type BitcoinFamilyCoin } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { RpcEndpoint } from '../rpc/json-rpc.js';

export type { RpcEndpoint } from '../rpc/json-rpc.js';

/** Coins with a Bitcoin-family dev chain (bcoin, litecoind): the coin table's 'bitcoin' rows. Monero's is monero.ts. */
export const DEV_COINS = BITCOIN_FAMILY_COINS;
export type DevCoin = BitcoinFamilyCoin;

export const MWEB_MODES = ['off', 'on', 'activate'] as const;
export type MwebMode = (typeof MWEB_MODES)[number];

export interface DevChain {
  coin: DevCoin;
  /** Node RPC (getblocktemplate, submitblock, generatetoaddress...). */
  rpc: RpcEndpoint;
  /** Wallet RPC (getbalance, sendmany...). For bcoin this is its separate wallet server. */
  walletRpc: RpcEndpoint;
  /** An address of the pool wallet that holds spendable coins. */
  poolAddress: string;
  /** Not used by these chains: new tips are reported through `blocknotifyCommand`. */
  blocknotifyPort?: number;
  /** Mines `blocks` blocks to `address` (default: the pool address); resolves with their hashes. */
  mine(blocks: number, address?: string): Promise<string[]>;
  /** OS process ids of the chain's processes right now (runner/supervisors and nodes). */
  processIds(): number[];
  /** The node processes themselves (bcoin runner; each litecoind), the one `rpc` reaches first. */
  nodeProcessIds(): number[];
  /** Stops every process of the chain and removes temporary data; safe to call twice. */
  stop(): Promise<void>;
}

export interface DevChainOptions {
  /** Keep chain data (and the pool wallet) here. Default: a temp dir removed on stop. */
  dataDir?: string;
  logger: Logger;
  /**
   * LTC only. 'activate' (default, like mainnet): mine through MWEB activation (height 432) at
   * start, so every template carries MWEB. 'on': Litecoin's regtest deployment, activating at
   * height 432 — mine() puts the peg-in block 432 needs into the mempool when it crosses 431,
   * but a pool mining block 432 itself gets no template until a peg-in is in the mempool.
   * 'off': MWEB never activates (-vbparams=mweb:-2:0).
   */
  mweb?: MwebMode;
  /** A command with %s (the new tip hash), run on every new tip, like litecoind -blocknotify. */
  blocknotifyCommand?: string;
}
