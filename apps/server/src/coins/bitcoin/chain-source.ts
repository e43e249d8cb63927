// Adapts the chain module (ChainNode + TemplateWatcher + submitBlock) to the TemplateSource the
// Stratum server consumes. Create the source BEFORE watcher.start(), so the first template is seen.
import { coinParams, type BitcoinFamilyCoin, type BlockTemplateRpc, type Network } from '@manjam/protocol';
import {
  NodeSet,
  submitBlockToAll,
  type ChainNode,
  type SubmitOptions,
  type TemplateWatcher,
} from './node/index.js';
import type { BlockSubmitResult, SourceAvailability, TemplateInfo, TemplateSource } from './source.js';

export interface ChainSourceOptions {
  coin: BitcoinFamilyCoin;
  network: Network;
  /** The pool wallet address every coinbase pays. */
  poolAddress: string;
  /** The coin's node, or all its nodes (found blocks go to every one). */
  node: ChainNode | NodeSet;
  watcher: TemplateWatcher;
  submit?: SubmitOptions;
}

export interface ChainSource extends TemplateSource {
  availability(): SourceAvailability;
  onAvailability(listener: (availability: SourceAvailability) => void): () => void;
  /** Stops listening to the watcher (the watcher itself is stopped by its owner). */
  close(): void;
}

export function createChainSource(options: ChainSourceOptions): ChainSource {
  const { coin, watcher } = options;
  const submitTargets = options.node instanceof NodeSet ? options.node.nodes : [options.node];
  const listeners = new Set<(template: BlockTemplateRpc, info: TemplateInfo) => void>();
  let current: BlockTemplateRpc | undefined;
  const unsubscribe = watcher.onTemplate((template, info) => {
    current = template;
    for (const listener of listeners) listener(template, info);
  });
  return {
    coin,
    params: coinParams(coin, options.network),
    poolAddress: options.poolAddress,
    current: () => current,
    onTemplate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onTip: (listener) => watcher.onTip(listener),
    async submitBlock(blockHex, expected): Promise<BlockSubmitResult> {
      const result = await submitBlockToAll(submitTargets, blockHex, expected, options.submit);
      // Our own block is a new tip: fetch the next template now rather than at the next poll.
      if (result.status === 'accepted') void watcher.trigger('poll');
      return {
        status: result.status,
        nodeResult: result.nodeResult,
        ...(result.tipHash ? { tipHash: result.tipHash } : {}),
      };
    },
    availability: () => watcher.health.availability(),
    silentPastLimit: () => watcher.health.silentPastLimit(),
    onAvailability: (listener) => watcher.health.onChange(listener),
    close: unsubscribe,
  };
}
