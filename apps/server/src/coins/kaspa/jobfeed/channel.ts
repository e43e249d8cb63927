// KAS on the core's job feed: each template of kaspad's template source goes out as the family's
// work message (messages.ts), and a region's found block is submitted to kaspad (SubmitBlock).
import type { FeedChannel } from '../../../jobfeed/publisher.js';
import type { KaspaChainRuntime } from '../chain.js';
import type { RpcBlock } from '../kaspad-wire.js';
import { kaspaBlockOf } from './messages.js';

export function kaspaChannel(
  runtime: Pick<KaspaChainRuntime, 'coin' | 'configNetwork' | 'poolAddress' | 'source'>,
): FeedChannel<{ block: RpcBlock }> {
  const { source } = runtime;
  return {
    coin: runtime.coin,
    network: runtime.configNetwork,
    poolAddress: runtime.poolAddress,
    current: () => (source.current ? { block: source.current.block } : undefined),
    onWork: (listener) => source.onTemplate((template) => listener({ block: template.block })),
    submitBlock: async (blockHex) => {
      const block = kaspaBlockOf(blockHex);
      if (!block) return { status: 'rejected', nodeResult: 'not a Kaspa block' };
      return source.submitBlock(block);
    },
  };
}
